package io.sandboxfactory.api.support;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/**
 * Waiting for a condition that nothing announces (a process gone, a container stopped, an exec
 * ended), by asking it again after short pauses until it holds or a deadline passes. A condition
 * that throws ends the wait with its exception, so a caller can tell "cannot ask" from "not yet".
 *
 * @since 0.1.0
 */
public final class Polling {

    private Polling() {
    }

    /**
     * Asks {@code condition} until it holds, at most for {@code wait}, pausing {@code pause} in
     * between; it is asked at least once. Returns whether it held: false when the wait passed first,
     * or when the thread was interrupted (its interrupt status is kept).
     */
    public static boolean until(Duration wait, Duration pause, BooleanSupplier condition) {
        long deadline = System.nanoTime() + wait.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            try {
                Thread.sleep(pause.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return true;
    }
}
