package io.sandboxfactory.core.config;

import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.InvalidInputException;

import java.time.Duration;
import java.util.Optional;

/**
 * The {@code timeouts:} section. Durations accept ISO-8601 ({@code PT15M}) or {@code 15m}/{@code 30s}.
 *
 * @param setup how long the setup command may run; default 15 minutes
 * @param command default timeout of session commands; none unless configured
 */
public record Timeouts(Duration setup, Optional<Duration> command) {

    public static final Duration DEFAULT_SETUP = Duration.ofMinutes(15);

    public Timeouts {
        setup = setup == null ? DEFAULT_SETUP : setup;
        command = command == null ? Optional.empty() : command;
        requirePositive("timeouts.setup", setup);
        command.ifPresent(c -> requirePositive("timeouts.command", c));
    }

    private static void requirePositive(String key, Duration value) {
        if (value.isNegative() || value.isZero()) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, "Timeout " + key + " = " + value + " is invalid; it must be positive.");
        }
    }

    /** Setup 15 minutes, no command timeout. */
    public static Timeouts defaults() {
        return new Timeouts(null, null);
    }
}
