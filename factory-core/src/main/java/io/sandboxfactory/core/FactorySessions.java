package io.sandboxfactory.core;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.core.config.ResolvedConfig;
import io.sandboxfactory.core.git.RetryPolicy;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.retire.SessionRetirementCoordinator;
import io.sandboxfactory.core.session.InFlightStarts;
import io.sandboxfactory.core.session.RepositoryLocator;
import io.sandboxfactory.core.session.SessionDefaults;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionMemo;
import io.sandboxfactory.core.session.SessionOpener;
import io.sandboxfactory.core.session.SessionServices;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.SessionTimeouts;
import io.sandboxfactory.core.store.LeaseOwner;
import io.sandboxfactory.core.store.SessionLeases;
import io.sandboxfactory.core.store.SessionStore;
import io.sandboxfactory.core.store.SqliteSessionStore;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The session machinery of one {@link SandboxFactory}: store, leases, opener and retirement
 * coordinator, all owned by that factory. Made after the state directory exists, because the
 * default store is a file in it.
 */
final class FactorySessions implements AutoCloseable {

    private final SessionStore store;
    private final boolean ownsStore;
    private final SessionLeases leases;
    private final SessionOpener opener;
    private final SessionRetirementCoordinator coordinator;

    private FactorySessions(SessionStore store, boolean ownsStore, SessionLeases leases, SessionOpener opener,
                            SessionRetirementCoordinator coordinator) {
        this.store = store;
        this.ownsStore = ownsStore;
        this.leases = leases;
        this.opener = opener;
        this.coordinator = coordinator;
    }

    static FactorySessions open(ResolvedConfig config, FactorySandbox provider, SessionMemo memo, Optional<SessionStore> hostStore,
                                SessionListener listener, Optional<Supplier<String>> token) {
        SessionStore store = hostStore.orElseGet(() -> SqliteSessionStore.openIn(config.stateDirectory()));
        SessionLeases leases = SessionLeases.withDefaults(store, LeaseOwner.forThisProcess());
        SessionTimeouts timeouts = new SessionTimeouts(Duration.ofMinutes(1), Duration.ofMinutes(10), Duration.ofMinutes(5),
                config.timeouts().setup(), Duration.ofMinutes(5));
        SessionDefaults defaults = new SessionDefaults(config.repository().defaultBaseBranch(), config.repository().setup(),
                config.repository().teardown(), new RepositoryLocator(config.repository().cloneUrlTemplate()), token, timeouts,
                RetryPolicy.defaults());
        SessionServices services = new SessionServices(store, leases, new InFlightStarts(), listener, defaults);
        return new FactorySessions(store, hostStore.isEmpty(), leases, new SessionOpener(provider, memo, services),
                new SessionRetirementCoordinator(memo, provider, services));
    }

    SessionHandle open(SessionSpec spec) {
        return opener.open(spec);
    }

    Optional<SessionHandle> session(String sessionId) {
        return opener.session(sessionId);
    }

    void retire(String sessionId, RetireMode mode) {
        coordinator.retire(sessionId, mode.deletesSession());
    }

    void refreshToken(String sessionId, String token) {
        opener.refreshToken(sessionId, token);
    }

    Runnable onInvalidate(String sessionId, Runnable callback) {
        return coordinator.onInvalidate(sessionId, callback);
    }

    SessionStore store() {
        return store;
    }

    @Override
    public void close() {
        opener.close();
        leases.close();
        if (ownsStore) {
            store.close();
        }
    }
}
