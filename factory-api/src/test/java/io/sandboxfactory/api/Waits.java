package io.sandboxfactory.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** Bounds for every wait in these tests: generous, so only a real deadlock trips them. */
final class Waits {

    static final long SECONDS = 30;

    private Waits() {
    }

    static void await(CountDownLatch latch, String what) throws InterruptedException {
        assertThat(latch.await(SECONDS, TimeUnit.SECONDS)).as(what).isTrue();
    }
}
