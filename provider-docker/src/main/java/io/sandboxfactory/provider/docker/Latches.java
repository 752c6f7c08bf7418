package io.sandboxfactory.provider.docker;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Waiting on a latch with an optional timeout, as the exec paths wait for a command's end. */
final class Latches {

    private Latches() {
    }

    /** Waits for {@code latch}; false when {@code timeout} passed first. Empty waits forever. */
    static boolean await(CountDownLatch latch, Optional<Duration> timeout) throws InterruptedException {
        if (timeout.isEmpty()) {
            latch.await();
            return true;
        }
        return latch.await(timeout.get().toNanos(), TimeUnit.NANOSECONDS);
    }
}
