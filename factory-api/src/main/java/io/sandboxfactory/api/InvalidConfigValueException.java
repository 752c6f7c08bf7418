package io.sandboxfactory.api;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.DurationText;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Values of a provider's config section broke its rules: one or more {@link Problem}s, each naming
 * the key <em>relative to the section</em> ({@code root}, {@code labels.team}), the value and the
 * rule. The framework owns the {@code providers.<name>} prefix and knows where each value came from,
 * so it reports every problem as {@code providers.<name>.<key>} with its file, environment variable
 * or default, together with the other config errors; a provider never spells its own prefix.
 *
 * <p>Throw it from the config record's constructor (preferred: it runs while the config is read,
 * before anything is created) or from {@link SandboxProvider#open}. To report every bad value of a
 * record at once, gather them in a {@link Collector}:
 *
 * <pre>{@code
 * public MyConfig {
 *     InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
 *     if (root != null && !root.startsWith("/")) {
 *         problems.reject("root", root, "it must be an absolute path");
 *     }
 *     problems.throwIfAny();
 * }
 * }</pre>
 *
 * Code {@link StandardErrorCode#INVALID_CONFIG}, so the CLI exits 2.
 *
 * @since 0.1.0
 */
public class InvalidConfigValueException extends InvalidInputException {
    private static final long serialVersionUID = 1L;

    private final List<Problem> problems;

    /** One rejected value. */
    public InvalidConfigValueException(String key, Object value, String rule) {
        this(List.of(new Problem(key, value == null ? null : String.valueOf(value), rule)));
    }

    /** Several rejected values; at least one. */
    public InvalidConfigValueException(List<Problem> problems) {
        super(StandardErrorCode.INVALID_CONFIG, message(problems));
        this.problems = List.copyOf(problems);
    }

    /** Every rejected value, in the order found. */
    public List<Problem> problems() {
        return problems;
    }

    private static String message(List<Problem> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("An InvalidConfigValueException needs at least one problem.");
        }
        StringBuilder text = new StringBuilder();
        for (Problem problem : problems) {
            text.append(text.length() == 0 ? "" : " ").append(problem);
        }
        return text.toString();
    }

    /**
     * One value a provider rejects.
     *
     * @param key the key relative to the provider's section: {@code memory}, {@code env.FOO},
     *     {@code volumes[1]}; never {@code providers.<name>.}
     * @param value the value as the user wrote it, or null to leave it out of the message (a secret,
     *     or a rule about a missing value)
     * @param rule what the value must be, as a clause: {@code it must be an absolute path}
     * @since 0.1.0
     */
    public record Problem(String key, String value, String rule) {

        public Problem {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(rule, "rule");
            rule = rule.strip();
            if (rule.endsWith(".")) {
                rule = rule.substring(0, rule.length() - 1);
            }
        }

        /** {@code key 'value' is invalid; rule.}, the sentence a caller outside the framework sees. */
        @Override
        public String toString() {
            return key + (value == null ? "" : " '" + value + "'") + " is invalid; " + rule + ".";
        }
    }

    /**
     * Gathers the problems of one section so that all of them are reported at once. Not thread-safe:
     * one per constructor call.
     *
     * @since 0.1.0
     */
    public static final class Collector {

        private final List<Problem> problems = new ArrayList<>();

        /**
         * Records that {@code value} of {@code key} breaks {@code rule}; a null value is left out of
         * the message, a duration is shown as written ({@code 100ms}, not {@code PT0.1S}).
         */
        public void reject(String key, Object value, String rule) {
            String shown = value instanceof Duration d ? DurationText.of(d) : value == null ? null : String.valueOf(value);
            problems.add(new Problem(key, shown, rule));
        }

        /**
         * {@code part}'s value, or {@code fallback} after recording the problems of the {@link
         * InvalidConfigValueException} it threw: for a helper that parses one value.
         */
        public <T> T check(Supplier<T> part, T fallback) {
            try {
                return part.get();
            } catch (InvalidConfigValueException e) {
                problems.addAll(e.problems());
                return fallback;
            }
        }

        /** Runs {@code part}, recording the problems of the {@link InvalidConfigValueException} it threw. */
        public void check(Runnable part) {
            check(() -> {
                part.run();
                return null;
            }, null);
        }

        /** Whether nothing was rejected. */
        public boolean isEmpty() {
            return problems.isEmpty();
        }

        /** Throws one {@link InvalidConfigValueException} holding every problem recorded, if any. */
        public void throwIfAny() {
            if (!problems.isEmpty()) {
                throw new InvalidConfigValueException(problems);
            }
        }
    }
}
