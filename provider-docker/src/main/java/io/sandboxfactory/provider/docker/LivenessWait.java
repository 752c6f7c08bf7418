package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;

import java.time.Duration;
import java.util.Optional;

/**
 * Waits for a command's output to end while asking, every {@link #CHECK}, whether its container
 * still runs: the engine does not always end an attached stream when its container stops (seen on
 * engine 20.10 under gVisor, with the container stopped from outside), and the command would wait
 * out its whole timeout, or for ever without one. Used by the exec channel and by one exec per command.
 */
final class LivenessWait {

    /** How often a waiting command asks whether its container still runs. */
    static final Duration CHECK = Duration.ofSeconds(2);

    /** How a wait ended. */
    enum Outcome { ENDED, TIMED_OUT, CONTAINER_STOPPED }

    /** A wait for the command's end, up to the given time; true when it ended. */
    @FunctionalInterface
    interface Waiter {
        boolean await(Optional<Duration> upTo) throws InterruptedException;
    }

    private LivenessWait() {
    }

    /** Waits on {@code waiter} up to {@code timeout} (empty: for ever) while the container runs. */
    static Outcome await(DockerClient client, String containerId, Optional<Duration> timeout, Waiter waiter) throws InterruptedException {
        long start = System.nanoTime();
        while (true) {
            Duration slice = CHECK;
            if (timeout.isPresent()) {
                Duration left = timeout.get().minusNanos(System.nanoTime() - start);
                if (left.isNegative() || left.isZero()) {
                    return Outcome.TIMED_OUT;
                }
                slice = left.compareTo(slice) < 0 ? left : slice;
            }
            if (waiter.await(Optional.of(slice))) {
                return Outcome.ENDED;
            }
            if (notRunning(client, containerId)) {
                return Outcome.CONTAINER_STOPPED;
            }
        }
    }

    /** Whether the engine says the container is removed or not running now; false when it cannot tell. */
    private static boolean notRunning(DockerClient client, String containerId) {
        try {
            InspectContainerResponse container = client.inspectContainerCmd(containerId).exec();
            return container.getState() != null && Boolean.FALSE.equals(container.getState().getRunning());
        } catch (RuntimeException e) {
            return DockerFailures.isNotFound(e);
        }
    }
}
