package io.sandboxfactory.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A one-shot gate a fake primitive passes through. While closed, the thread that reaches it waits
 * until the test opens it, so a test can hold a start, stop or command at a known point and look at
 * the sandbox's state meanwhile. Every wait is bounded so a deadlock fails instead of hanging.
 */
final class Gate {

    private final CountDownLatch arrived = new CountDownLatch(1);
    private final CountDownLatch opened = new CountDownLatch(1);
    private volatile Thread firstArrival;

    /** Called by the fake: records the arrival and waits while the gate is closed. */
    void pass() throws InterruptedException {
        synchronized (this) {
            if (firstArrival == null) {
                firstArrival = Thread.currentThread();
            }
        }
        arrived.countDown();
        if (!opened.await(Waits.SECONDS, TimeUnit.SECONDS)) {
            throw new AssertionError("The test never opened the gate.");
        }
    }

    /** Waits until a thread reached the gate and returns that thread. */
    Thread awaitArrival() throws InterruptedException {
        assertThat(arrived.await(Waits.SECONDS, TimeUnit.SECONDS)).as("a thread reached the gate").isTrue();
        return firstArrival;
    }

    void open() {
        opened.countDown();
    }
}
