package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.core.session.SessionRetiredException;
import jakarta.inject.Inject;

import java.util.Objects;

/**
 * Pipeline step: generation check. A retirement (here or in another process sharing the store)
 * bumps the session's generation before it takes the lease; an open or start made for an older
 * generation must not go on, or it would bring a retired session's sandbox back.
 */
final class GenerationCheck {

    private final SessionServices services;

    @Inject
    GenerationCheck(SessionServices services) {
        this.services = Objects.requireNonNull(services, "services");
    }

    /** The session's generation now: what this open's sandbox instance is made for. */
    long current(String sessionId) {
        return services.store().generation(sessionId);
    }

    /** Throws {@link SessionRetiredException} when the session was retired since {@code generation}. */
    void require(String sessionId, long generation) {
        if (current(sessionId) != generation) {
            throw new SessionRetiredException(sessionId);
        }
    }

    /** Throws {@link SessionRetiredException} when the session was retired since {@code entry}'s instance was made. */
    void require(SessionEntry entry) {
        if (entry.retiredSince(current(entry.sessionId()))) {
            throw new SessionRetiredException(entry.sessionId());
        }
    }

    /** Whether the session was retired since {@code generation}; false when the store cannot say. */
    boolean retiredSince(String sessionId, long generation) {
        try {
            return current(sessionId) != generation;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
