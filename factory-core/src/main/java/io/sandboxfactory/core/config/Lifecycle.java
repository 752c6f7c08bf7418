package io.sandboxfactory.core.config;

import io.sandboxfactory.api.InvalidConfigValueException;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code lifecycle:} section: idle policies that {@code factory sweep} (and a running factory
 * daemon, every minute) applies. Off unless set. A session is idle when nothing opened it, ran a
 * command in it, used its files or touched it for that long, and no command runs in it.
 *
 * @param stopAfterIdle stop the sandboxes of sessions idle this long (files and record kept)
 * @param deleteAfterIdle destroy sessions idle this long, sandbox, files and record
 */
public record Lifecycle(Optional<Duration> stopAfterIdle, Optional<Duration> deleteAfterIdle) {

    public Lifecycle {
        stopAfterIdle = Objects.requireNonNullElse(stopAfterIdle, Optional.empty());
        deleteAfterIdle = Objects.requireNonNullElse(deleteAfterIdle, Optional.empty());
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        stopAfterIdle.ifPresent(d -> Timeouts.requirePositive("stopAfterIdle", d, problems));
        deleteAfterIdle.ifPresent(d -> Timeouts.requirePositive("deleteAfterIdle", d, problems));
        problems.throwIfAny();
    }

    /** No idle policy. */
    public static Lifecycle off() {
        return new Lifecycle(Optional.empty(), Optional.empty());
    }
}
