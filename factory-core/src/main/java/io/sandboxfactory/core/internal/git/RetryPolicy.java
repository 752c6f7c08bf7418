package io.sandboxfactory.core.internal.git;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;

import java.time.Duration;
import java.util.Objects;

/**
 * How often a clone or fetch is retried after a transient transport failure, and how long to wait
 * in between (doubling each time).
 *
 * @param retries retries after the first attempt
 * @param initialBackoff wait before the first retry
 */
public record RetryPolicy(int retries, Duration initialBackoff) {

    public RetryPolicy {
        if (retries < 0) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Retry count " + retries + " is invalid; it must be at least 0.");
        }
        Objects.requireNonNull(initialBackoff, "initialBackoff");
        if (initialBackoff.isNegative()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Backoff " + initialBackoff + " is invalid; it must not be negative.");
        }
    }

    /** Two retries, waiting 1 s then 2 s. */
    public static RetryPolicy defaults() {
        return new RetryPolicy(2, Duration.ofSeconds(1));
    }

    /** The wait before retry number {@code retry} (1-based). */
    Duration backoff(int retry) {
        return initialBackoff.multipliedBy(1L << Math.min(retry - 1, 16));
    }
}
