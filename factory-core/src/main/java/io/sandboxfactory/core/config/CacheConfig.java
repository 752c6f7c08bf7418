package io.sandboxfactory.core.config;

import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.InvalidInputException;

import java.time.Duration;

/**
 * The {@code cache:} section: the host Git object cache (design §5.14).
 *
 * @param enabled clone new checkouts of the local provider through a per-repository bare mirror
 *     under {@code <stateDir>/git-cache} (default false)
 * @param maxIdle {@code factory sweep} removes mirrors no open used for this long (default 30 days)
 */
public record CacheConfig(Boolean enabled, Duration maxIdle) {

    public CacheConfig {
        enabled = enabled != null && enabled;
        maxIdle = maxIdle == null ? Duration.ofDays(30) : maxIdle;
        if (maxIdle.isNegative() || maxIdle.isZero()) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, "cache.maxIdle " + maxIdle + " is invalid; it must be positive.");
        }
    }

    public static CacheConfig defaults() {
        return new CacheConfig(false, null);
    }
}
