package io.sandboxfactory.api.capability;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One physical sandbox a provider knows about, as listed by {@link SandboxInventory}.
 *
 * @param sandboxId the provider's physical id (container id, directory path)
 * @param sessionId the session it was made for
 * @param state what it is doing right now, as far as the provider can tell
 * @param createdAt when it was made, when known
 * @since 0.1.0
 */
public record SandboxListing(String sandboxId, String sessionId, State state, Optional<Instant> createdAt) {

    /**
     * What a listed sandbox is doing, as its provider sees it. {@code status} and {@code list} show
     * it in the session vocabulary (running, idle, paused, stopped, absent, failed), together with
     * what the session store knows (a command running, a retirement's stop).
     */
    public enum State {
        /** Up: commands can run in it now without a start (a running container, a ready pod, a local directory). */
        UP,
        /** Frozen by its platform (a paused container); only providers that can pause report it. */
        PAUSED,
        /** Exists but is not up: it needs a start before commands run (a stopped container, claims without a pod). */
        STOPPED,
        /** The provider reports it broken: it cannot run commands as it is (a dead container, a failed pod). */
        BROKEN
    }

    public SandboxListing {
        Objects.requireNonNull(sandboxId, "sandboxId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(createdAt, "createdAt");
    }

    /** A sandbox that is {@link State#UP up} when {@code running}, else {@link State#STOPPED stopped}. */
    public SandboxListing(String sandboxId, String sessionId, boolean running, Optional<Instant> createdAt) {
        this(sandboxId, sessionId, running ? State.UP : State.STOPPED, createdAt);
    }

    /** Whether it is up right now. */
    public boolean running() {
        return state == State.UP;
    }
}
