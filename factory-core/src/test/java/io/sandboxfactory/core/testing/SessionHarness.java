package io.sandboxfactory.core.testing;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.testing.TestProviderContext;
import io.sandboxfactory.core.internal.git.RetryPolicy;
import io.sandboxfactory.core.internal.retire.SessionRetirementCoordinator;
import io.sandboxfactory.core.internal.session.CommandActivity;
import io.sandboxfactory.core.internal.session.InFlightStarts;
import io.sandboxfactory.core.internal.session.SessionDefaults;
import io.sandboxfactory.core.internal.session.SessionMemo;
import io.sandboxfactory.core.internal.session.SessionOpener;
import io.sandboxfactory.core.internal.session.SessionServices;
import io.sandboxfactory.core.internal.store.SessionLeases;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.store.SqliteSessionStore;
import io.sandboxfactory.provider.local.LocalFactorySandbox;
import io.sandboxfactory.provider.local.LocalProviderConfig;
import io.sandboxfactory.provider.local.LocalSandboxProvider;
import io.sandboxfactory.store.api.LeaseOwner;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * One factory's worth of the session machinery built from real parts with explicit constructors:
 * the local provider rooted in the state directory, the SQLite store, leases, memo, opener and
 * retirement coordinator, plus a recording listener. Two harnesses on one state directory behave
 * like two processes.
 */
public final class SessionHarness implements AutoCloseable {

    public final Path state;
    public final SqliteSessionStore store;
    public final SessionLeases leases;
    public final InFlightStarts inFlight = new InFlightStarts();
    public final RecordingListener listener = new RecordingListener();
    public final LocalFactorySandbox local;
    public final SessionMemo memo = new SessionMemo();
    public final SessionServices services;
    private final CommandActivity activity;
    public final SessionOpener opener;
    public final SessionRetirementCoordinator coordinator;

    public SessionHarness(Path state) {
        this(state, UnaryOperator.identity());
    }

    public SessionHarness(Path state, UnaryOperator<FactorySandbox> wrapProvider) {
        this(state, SessionDefaults.defaults().withRetry(new RetryPolicy(2, Duration.ZERO)), wrapProvider);
    }

    public SessionHarness(Path state, SessionDefaults defaults, UnaryOperator<FactorySandbox> wrapProvider) {
        this.state = state;
        this.store = SqliteSessionStore.openIn(state);
        this.leases = new SessionLeases(store, LeaseOwner.forThisProcess(), Duration.ofSeconds(5), Duration.ofMillis(20));
        this.local = (LocalFactorySandbox) new LocalSandboxProvider()
                .open(LocalProviderConfig.withRoot(state.resolve("sessions").toString()).withVolumes(List.of(state.getParent().toString())),
                        new TestProviderContext(state, "test"));
        FactorySandbox provider = wrapProvider.apply(local);
        this.activity = new CommandActivity(store, java.time.Clock.systemUTC());
        this.services = new SessionServices(store, leases, inFlight, listener, defaults, activity);
        this.opener = new SessionOpener("local", provider, memo, services);
        this.coordinator = new SessionRetirementCoordinator(memo, provider, services);
    }

    public Path sessionDirectory(String sessionId) {
        return local.root().resolve(sessionId);
    }

    public SessionHandle open(SessionSpec spec) {
        return opener.open(spec);
    }

    public void retire(String sessionId, RetireMode mode) {
        coordinator.retire(sessionId, mode.deletesSession());
    }

    @Override
    public void close() {
        opener.close();
        activity.close();
        leases.close();
        store.close();
    }
}
