package io.sandboxfactory.core.config;

import io.sandboxfactory.api.InvalidConfigValueException;

import java.time.Duration;
import java.util.Optional;

/**
 * The {@code timeouts:} section. Durations accept ISO-8601 ({@code PT15M}) or {@code 15m}/{@code 30s}.
 *
 * @param setup how long the setup command may run; default 15 minutes
 * @param command default timeout of session commands; none unless configured
 * @param probe the batched workspace probe of a start; default 1 minute
 * @param network one clone or fetch of a session's repository; default 10 minutes
 * @param checkout switching to the session branch (may fetch the base); default 5 minutes
 * @param teardown the teardown commands of a retirement; default 5 minutes
 */
public record Timeouts(Duration setup, Optional<Duration> command, Duration probe, Duration network, Duration checkout,
                       Duration teardown) {

    public static final Duration DEFAULT_SETUP = Duration.ofMinutes(15);
    public static final Duration DEFAULT_PROBE = Duration.ofMinutes(1);
    public static final Duration DEFAULT_NETWORK = Duration.ofMinutes(10);
    public static final Duration DEFAULT_CHECKOUT = Duration.ofMinutes(5);
    public static final Duration DEFAULT_TEARDOWN = Duration.ofMinutes(5);

    public Timeouts {
        setup = setup == null ? DEFAULT_SETUP : setup;
        command = command == null ? Optional.empty() : command;
        probe = probe == null ? DEFAULT_PROBE : probe;
        network = network == null ? DEFAULT_NETWORK : network;
        checkout = checkout == null ? DEFAULT_CHECKOUT : checkout;
        teardown = teardown == null ? DEFAULT_TEARDOWN : teardown;
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        requirePositive("setup", setup, problems);
        command.ifPresent(c -> requirePositive("command", c, problems));
        requirePositive("probe", probe, problems);
        requirePositive("network", network, problems);
        requirePositive("checkout", checkout, problems);
        requirePositive("teardown", teardown, problems);
        problems.throwIfAny();
    }

    public Timeouts withSetup(Duration value) {
        return new Timeouts(value, command, probe, network, checkout, teardown);
    }

    public Timeouts withCommand(Duration value) {
        return new Timeouts(setup, Optional.of(value), probe, network, checkout, teardown);
    }

    public Timeouts withProbe(Duration value) {
        return new Timeouts(setup, command, value, network, checkout, teardown);
    }

    public Timeouts withNetwork(Duration value) {
        return new Timeouts(setup, command, probe, value, checkout, teardown);
    }

    public Timeouts withCheckout(Duration value) {
        return new Timeouts(setup, command, probe, network, value, teardown);
    }

    public Timeouts withTeardown(Duration value) {
        return new Timeouts(setup, command, probe, network, checkout, value);
    }

    /** Keys are relative to {@code timeouts}, which the config reader prefixes. */
    static void requirePositive(String key, Duration value, InvalidConfigValueException.Collector problems) {
        if (value.isNegative() || value.isZero()) {
            problems.reject(key, value, "it must be positive");
        }
    }

    /** Setup 15 minutes, no command timeout, probe 1 minute, clone/fetch 10, checkout 5, teardown 5. */
    public static Timeouts defaults() {
        return new Timeouts(null, null, null, null, null, null);
    }
}
