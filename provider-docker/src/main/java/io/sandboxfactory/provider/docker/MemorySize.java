package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.InvalidConfigValueException;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parses memory limits the way {@code docker run --memory} spells them: a number of bytes, or a
 * number with a binary unit {@code b}, {@code k}, {@code m}, {@code g} or {@code t} (1k = 1024
 * bytes), optionally followed by {@code b} or {@code ib} ({@code 512m}, {@code 512MB}, {@code
 * 1.5GiB}). Rejects anything else, and limits under the engine's 6 MiB minimum, with one sentence
 * naming the value and the rule.
 */
final class MemorySize {

    /** The smallest limit Docker accepts for a container. */
    static final long MINIMUM_BYTES = 6L * 1024 * 1024;

    private static final Pattern SYNTAX = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(?:([kmgt])(?:i?b)?|b)?");

    private MemorySize() {
    }

    /**
     * The number of bytes {@code text} stands for.
     *
     * @param key the config key holding the value, within the provider's section: {@code memory}
     * @throws InvalidConfigValueException when the syntax is wrong, the value is fractional bytes,
     *     too large for a long or under {@link #MINIMUM_BYTES}
     */
    static long parse(String text, String key) {
        String trimmed = text == null ? "" : text.trim().toLowerCase(Locale.ROOT);
        Matcher m = SYNTAX.matcher(trimmed);
        if (!m.matches()) {
            throw new InvalidConfigValueException(key, text, "it must be a number of bytes with an optional binary unit b, k, m, g or t"
                    + " (for example 536870912, 512m or 2g)");
        }
        BigDecimal bytes = new BigDecimal(m.group(1)).multiply(BigDecimal.valueOf(multiplier(m.group(2))));
        long value;
        try {
            value = bytes.setScale(0, RoundingMode.UNNECESSARY).longValueExact();
        } catch (ArithmeticException e) {
            throw new InvalidConfigValueException(key, text, "it must be a whole number of bytes no larger than " + Long.MAX_VALUE);
        }
        if (value < MINIMUM_BYTES) {
            throw new InvalidConfigValueException(key, text, "Docker needs at least 6m (" + MINIMUM_BYTES + " bytes)");
        }
        return value;
    }

    private static long multiplier(String unit) {
        if (unit == null) {
            return 1L;
        }
        return switch (unit) {
            case "k" -> 1L << 10;
            case "m" -> 1L << 20;
            case "g" -> 1L << 30;
            case "t" -> 1L << 40;
            default -> 1L;
        };
    }
}
