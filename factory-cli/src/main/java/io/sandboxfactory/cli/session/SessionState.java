package io.sandboxfactory.cli.session;

import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.store.api.SessionRecord;

import java.util.Locale;
import java.util.Optional;

/**
 * The one vocabulary of a session's state that {@code status}, {@code list}, {@code open/exec/run
 * --json} and the MCP tools show, always in lower case ({@link #toString()}); docs/guide/lifecycle.md (Session states)
 * documents it in one table. The first rule that matches wins:
 * {@link #UNREACHABLE}, {@link #ABSENT}, {@link #FAILED}, {@link #RUNNING}, {@link #PAUSED},
 * {@link #STOPPED}, {@link #IDLE}.
 */
public enum SessionState {
    /** A command runs in it now (in any process using the same session store). */
    RUNNING,
    /** Started, nothing running: a command runs in it without a start. */
    IDLE,
    /** Frozen by its platform (a paused container); only providers that can pause show it. */
    PAUSED,
    /** It exists but is not started: retired with stop, stopped outside, or never started; the next command starts it. */
    STOPPED,
    /** The session record exists but its provider has no sandbox for it (destroyed outside, or its open has not made one yet). */
    ABSENT,
    /** Its last setup failed, or the provider reports its sandbox broken. */
    FAILED,
    /** Its provider could not be opened or asked from here (another provider whose engine, cluster or callback is not reachable). */
    UNREACHABLE;

    /** What a session's provider says about its sandbox. */
    public sealed interface Sighting {
    }

    /** The provider lists a sandbox of the session in this state. */
    public record Listed(SandboxListing.State state) implements Sighting {
    }

    /** The provider lists its sandboxes and none is the session's. */
    public record NotListed() implements Sighting {
    }

    /** The provider cannot list its sandboxes: the session store is all there is to go by. */
    public record Unlisted() implements Sighting {
    }

    /** The provider could not be opened or did not answer. */
    public record Unreachable() implements Sighting {
    }

    /**
     * A stored session's state.
     *
     * @param sighting what its provider says
     * @param commandRunning whether the store knows a command running in it now
     * @param setupFailed whether its last setup failed (a repository of an environment, or a setup command)
     */
    public static SessionState of(SessionRecord record, Sighting sighting, boolean commandRunning, boolean setupFailed) {
        Optional<SandboxListing.State> listed = sighting instanceof Listed l ? Optional.of(l.state()) : Optional.empty();
        if (sighting instanceof Unreachable) {
            return UNREACHABLE;
        }
        if (sighting instanceof NotListed) {
            return ABSENT;
        }
        if (setupFailed || listed.equals(Optional.of(SandboxListing.State.BROKEN))) {
            return FAILED;
        }
        if (commandRunning) {
            return RUNNING;
        }
        if (listed.equals(Optional.of(SandboxListing.State.PAUSED))) {
            return PAUSED;
        }
        // A provider without compute of its own (local) lists its sandbox up even after a stop: the record knows the stop.
        if (listed.equals(Optional.of(SandboxListing.State.STOPPED)) || record.stoppedAt().isPresent()
                || (listed.isEmpty() && record.materializedAt().isEmpty())) {
            return STOPPED;
        }
        return IDLE;
    }

    /** The state of a session this process holds open, from its sandbox instance ({@code open/exec/run --json}). */
    public static SessionState of(SandboxStatus status, boolean commandRunning) {
        return switch (status) {
            case RUNNING -> commandRunning ? RUNNING : IDLE;
            case DESTROYING, DESTROYED -> ABSENT;
            case ERROR -> FAILED;
            case PENDING, STARTING, STOPPING, STOPPED -> STOPPED;
        };
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
