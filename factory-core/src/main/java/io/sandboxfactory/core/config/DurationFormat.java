package io.sandboxfactory.core.config;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.InvalidInputException;

import io.sandboxfactory.api.support.DurationText;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads and writes durations as people write them in config: ISO-8601 ({@code PT15M}) or numbers
 * with units ({@code 15m}, {@code 30s}, {@code 500ms}, {@code 2h}, {@code 1d}, combined like
 * {@code 1h30m}). A bare number is rejected because its unit would be a guess.
 */
public final class DurationFormat {

    private static final Pattern SIMPLE = Pattern.compile("(?:\\d+(?:ms|s|m|h|d))+");
    private static final Pattern PART = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    private DurationFormat() {
    }

    /** The duration {@code text} denotes, or an {@link IllegalArgumentException} naming it and the accepted forms. */
    public static Duration parse(String text) {
        String trimmed = text == null ? "" : text.trim();
        try {
            if (trimmed.toUpperCase(Locale.ROOT).startsWith("P")) {
                return Duration.parse(trimmed.toUpperCase(Locale.ROOT));
            }
            if (SIMPLE.matcher(trimmed).matches()) {
                Duration total = Duration.ZERO;
                Matcher part = PART.matcher(trimmed);
                while (part.find()) {
                    total = total.plus(unit(Long.parseLong(part.group(1)), part.group(2)));
                }
                return total;
            }
        } catch (DateTimeParseException | ArithmeticException | NumberFormatException e) {
            // fall through to the one error message below
        }
        throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Duration '" + text + "' is invalid; write it as ISO-8601 (PT15M) or as a"
                + " number with a unit (500ms, 30s, 15m, 2h, 1d).");
    }

    /**
     * {@code duration} as a person would write it for {@link #parse}, in its largest whole unit:
     * {@code 1500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 30d}; what an error message and
     * {@code factory config} show of a limit.
     */
    public static String format(Duration duration) {
        return DurationText.of(duration);
    }

    private static Duration unit(long amount, String unit) {
        return switch (unit) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            case "m" -> Duration.ofMinutes(amount);
            case "h" -> Duration.ofHours(amount);
            default -> Duration.ofDays(amount);
        };
    }
}
