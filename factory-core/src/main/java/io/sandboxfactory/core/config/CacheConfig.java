package io.sandboxfactory.core.config;

import io.sandboxfactory.api.InvalidConfigValueException;

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
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        Timeouts.requirePositive("maxIdle", maxIdle, problems);
        problems.throwIfAny();
    }

    public static CacheConfig defaults() {
        return new CacheConfig(false, null);
    }
}
