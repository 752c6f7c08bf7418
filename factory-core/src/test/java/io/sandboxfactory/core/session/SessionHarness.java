package io.sandboxfactory.core.session;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.core.git.RetryPolicy;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.retire.SessionRetirementCoordinator;
import io.sandboxfactory.core.store.LeaseOwner;
import io.sandboxfactory.core.store.SessionLeases;
import io.sandboxfactory.core.store.SqliteSessionStore;
import io.sandboxfactory.core.testing.RecordingListener;
import io.sandboxfactory.core.testing.TestProviderContext;
import io.sandboxfactory.provider.local.LocalFactorySandbox;
import io.sandboxfactory.provider.local.LocalProviderConfig;
import io.sandboxfactory.provider.local.LocalSandboxProvider;

import java.nio.file.Path;
import java.time.Duration;
import java.util.function.UnaryOperator;

/**
 * One factory's worth of the session machinery built from real parts with explicit constructors:
 * the local provider rooted in the state directory, the SQLite store, leases, memo, opener and
 * retirement coordinator, plus a recording listener. Two harnesses on one state directory behave
 * like two processes.
 */
final class SessionHarness implements AutoCloseable {

    final Path state;
    final SqliteSessionStore store;
    final SessionLeases leases;
    final InFlightStarts inFlight = new InFlightStarts();
    final RecordingListener listener = new RecordingListener();
    final LocalFactorySandbox local;
    final SessionMemo memo = new SessionMemo();
    final SessionServices services;
    final SessionOpener opener;
    final SessionRetirementCoordinator coordinator;

    SessionHarness(Path state) {
        this(state, UnaryOperator.identity());
    }

    SessionHarness(Path state, UnaryOperator<FactorySandbox> wrapProvider) {
        this(state, SessionDefaults.defaults().withRetry(new RetryPolicy(2, Duration.ZERO)), wrapProvider);
    }

    SessionHarness(Path state, SessionDefaults defaults, UnaryOperator<FactorySandbox> wrapProvider) {
        this.state = state;
        this.store = SqliteSessionStore.openIn(state);
        this.leases = new SessionLeases(store, LeaseOwner.forThisProcess(), Duration.ofSeconds(5), Duration.ofMillis(20));
        this.local = (LocalFactorySandbox) new LocalSandboxProvider()
                .open(LocalProviderConfig.withRoot(state.resolve("sessions").toString()), new TestProviderContext(state, "test"));
        FactorySandbox provider = wrapProvider.apply(local);
        this.services = new SessionServices(store, leases, inFlight, listener, defaults);
        this.opener = new SessionOpener(provider, memo, services);
        this.coordinator = new SessionRetirementCoordinator(memo, provider, services);
    }

    Path sessionDirectory(String sessionId) {
        return local.root().resolve(sessionId);
    }

    SessionHandle open(SessionSpec spec) {
        return opener.open(spec);
    }

    void retire(String sessionId, RetireMode mode) {
        coordinator.retire(sessionId, mode.deletesSession());
    }

    @Override
    public void close() {
        opener.close();
        leases.close();
        store.close();
    }
}
