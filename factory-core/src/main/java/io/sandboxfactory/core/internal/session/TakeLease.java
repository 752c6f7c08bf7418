package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.core.internal.store.SessionLeases;
import io.sandboxfactory.core.session.SessionPhase;
import jakarta.inject.Inject;

import java.util.Objects;

/**
 * Pipeline step: lease. Takes the session's lease in the store, so across processes sharing it
 * only one provisions the sandbox and prepares it; a wait is reported as {@link
 * SessionPhase#WAITING_FOR_LEASE}. The lease is re-entrant for its owner: the open holds it around
 * the provider's start, and the preparation inside that start takes it again.
 */
final class TakeLease {

    private final SessionServices services;

    @Inject
    TakeLease(SessionServices services) {
        this.services = Objects.requireNonNull(services, "services");
    }

    SessionLeases.Lease take(String sessionId) {
        return take(sessionId, () -> { });
    }

    /**
     * @param whileWaiting runs between attempts; it throws to give up (a retirement overtook the
     *     open: it holds the lease to end the very sandbox this open waits to start)
     */
    SessionLeases.Lease take(String sessionId, Runnable whileWaiting) {
        return services.leases().acquire(sessionId,
                attempt -> services.phase(sessionId, SessionPhase.WAITING_FOR_LEASE, "held by " + attempt.holder()), whileWaiting);
    }
}
