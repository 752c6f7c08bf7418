package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.core.internal.store.SessionLeases;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.core.session.SessionRetiredException;

import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * Starts a session's sandbox instance only while no retirement has overtaken it. The provider
 * makes the physical sandbox before any start hook runs, so the session hook's own generation
 * check comes too late to stop a start that a retirement beat: the retirement (here or in another
 * process) ended the sandbox, and the start would make it again for a retired session. Holding the
 * session's lease, this checks the generation the instance was made in before starting it; a
 * retirement bumps the generation before it takes the lease, so either it waits for this start
 * and ends what it made, or this start sees the new generation and makes nothing.
 *
 * <p>A start that fails because of the template its instance was made from (a lazy open's first
 * command, say) is handed to the fallback, which replaces the instance with one made without it.
 */
final class GuardedStart {

    private final SessionServices services;
    private final BiFunction<SessionEntry, RuntimeException, Optional<SessionEntry>> templateFallback;

    GuardedStart(SessionServices services) {
        this(services, (entry, failure) -> Optional.empty());
    }

    /**
     * @param templateFallback the started entry that replaces one whose start failed because of its
     *     template; empty when the failure is the session's own
     */
    GuardedStart(SessionServices services, BiFunction<SessionEntry, RuntimeException, Optional<SessionEntry>> templateFallback) {
        this.services = Objects.requireNonNull(services, "services");
        this.templateFallback = Objects.requireNonNull(templateFallback, "templateFallback");
    }

    /**
     * Joins or makes the start of {@code entry}'s sandbox; takes the lease only when the start may
     * make or reach the physical sandbox (a running one needs nothing, a destroyed instance refuses
     * to start by itself). Returns the entry that is started: {@code entry}, or the one made without
     * a template in its place.
     */
    SessionEntry start(SessionEntry entry) {
        try {
            startOnce(entry);
            return entry;
        } catch (RuntimeException failure) {
            return templateFallback.apply(entry, failure).orElseThrow(() -> failure);
        }
    }

    private void startOnce(SessionEntry entry) {
        SandboxStatus status = entry.sandbox().status();
        if (status == SandboxStatus.RUNNING || status == SandboxStatus.DESTROYED) {
            StartFailures.start(entry.sandbox());
            return;
        }
        String id = entry.sessionId();
        try (SessionLeases.Lease lease = services.leases().acquire(id,
                attempt -> services.phase(id, SessionPhase.WAITING_FOR_LEASE, "held by " + attempt.holder()))) {
            startHoldingLease(entry);
        }
    }

    /** Starts {@code entry}'s sandbox; the caller holds the session's lease. */
    void startHoldingLease(SessionEntry entry) {
        if (entry.retiredSince(services.store().generation(entry.sessionId()))) {
            throw new SessionRetiredException(entry.sessionId());
        }
        StartFailures.start(entry.sandbox());
    }
}
