package io.sandboxfactory.core.session;

import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.core.git.RetryPolicy;
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
import java.util.concurrent.atomic.AtomicReference;

/**
 * One "factory" worth of real parts for tests: the local provider rooted in the state directory,
 * the SQLite store, leases, in-flight registry and a recording listener. Two harnesses on one state
 * directory behave like two processes.
 */
final class SessionHarness implements AutoCloseable {

    final Path state;
    final SqliteSessionStore store;
    final SessionLeases leases;
    final InFlightStarts inFlight = new InFlightStarts();
    final RecordingListener listener = new RecordingListener();
    final LocalFactorySandbox provider;
    final SessionServices services;

    SessionHarness(Path state) {
        this(state, SessionDefaults.defaults().withRetry(new RetryPolicy(2, Duration.ZERO)));
    }

    SessionHarness(Path state, SessionDefaults defaults) {
        this.state = state;
        this.store = SqliteSessionStore.openIn(state);
        this.leases = new SessionLeases(store, LeaseOwner.forThisProcess(), Duration.ofSeconds(5), Duration.ofMillis(20));
        this.provider = (LocalFactorySandbox) new LocalSandboxProvider()
                .open(LocalProviderConfig.withRoot(state.resolve("sessions").toString()), new TestProviderContext(state, "test"));
        this.services = new SessionServices(store, leases, inFlight, listener, defaults);
    }

    Path sessionDirectory(String sessionId) {
        return provider.root().resolve(sessionId);
    }

    /** A new sandbox instance for {@code spec} with the session hook attached; not started. */
    MastraSandbox<?> prepare(SessionSpec spec) {
        SessionPlan plan = SessionPlan.of(spec, services.defaults());
        store.register(plan.definition(java.util.Optional.of("local")));
        MastraSandbox<?> sandbox = provider.create(FactorySandboxContext.builder(spec.sessionId()).repoFullName(spec.repositories().get(0)).build());
        AtomicReference<String> workdir = new AtomicReference<>();
        new SessionStartHook(plan, services, store.generation(spec.sessionId()), new SessionStartHook.WorkdirSlot() {
            @Override
            public java.util.Optional<String> get() {
                return java.util.Optional.ofNullable(workdir.get());
            }

            @Override
            public void set(String value) {
                workdir.compareAndSet(null, value);
            }
        }, spec.workingDirectory()).attachTo(sandbox);
        return sandbox;
    }

    MastraSandbox<?> open(SessionSpec spec) {
        MastraSandbox<?> sandbox = prepare(spec);
        sandbox.start();
        return sandbox;
    }

    @Override
    public void close() {
        leases.close();
        store.close();
    }
}
