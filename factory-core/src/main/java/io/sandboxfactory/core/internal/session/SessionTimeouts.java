package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;

import java.time.Duration;
import java.util.Objects;

/**
 * How long the session machinery lets each kind of command run inside the sandbox.
 *
 * @param probe the batched state probe
 * @param network one clone or fetch
 * @param checkout switching to the session branch (may fetch the base)
 * @param setup one setup unit, unless the session sets its own
 * @param teardown the teardown commands
 */
public record SessionTimeouts(Duration probe, Duration network, Duration checkout, Duration setup, Duration teardown) {

    public SessionTimeouts {
        for (Duration d : new Duration[] {probe, network, checkout, setup, teardown}) {
            Objects.requireNonNull(d, "timeout");
            if (d.isNegative() || d.isZero()) {
                throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Timeout " + d + " is invalid; it must be positive.");
            }
        }
    }

    /** Probe 1 min, clone/fetch 10 min, checkout 5 min, setup 15 min, teardown 5 min. */
    public static SessionTimeouts defaults() {
        return new SessionTimeouts(Duration.ofMinutes(1), Duration.ofMinutes(10), Duration.ofMinutes(5),
                Duration.ofMinutes(15), Duration.ofMinutes(5));
    }
}
