package io.sandboxfactory.api.support;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PollingTest {

    @Test
    void asksAgainUntilTheConditionHolds() {
        AtomicInteger asked = new AtomicInteger();
        assertThat(Polling.until(Duration.ofMinutes(1), Duration.ofMillis(1), () -> asked.incrementAndGet() == 3)).isTrue();
        assertThat(asked).hasValue(3);
    }

    @Test
    void aConditionThatNeverHoldsIsAskedOnceMoreAfterTheDeadlineAndFails() {
        AtomicInteger asked = new AtomicInteger();
        assertThat(Polling.until(Duration.ZERO, Duration.ofMillis(1), () -> asked.incrementAndGet() < 0)).isFalse();
        assertThat(asked).hasValue(1);
    }

    @Test
    void anInterruptEndsTheWaitAndIsKept() {
        Thread.currentThread().interrupt();
        try {
            assertThat(Polling.until(Duration.ofMinutes(1), Duration.ofMillis(1), () -> false)).isFalse();
            assertThat(Thread.currentThread().isInterrupted()).isTrue();
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void aConditionThatThrowsEndsTheWaitWithItsException() {
        assertThatThrownBy(() -> Polling.until(Duration.ofMinutes(1), Duration.ofMillis(1), () -> {
            throw new IllegalArgumentException("cannot ask");
        })).hasMessage("cannot ask");
    }
}
