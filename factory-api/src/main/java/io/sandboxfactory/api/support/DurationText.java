package io.sandboxfactory.api.support;

import java.time.Duration;

/**
 * A duration as a person writes it in config ({@code 30s}, {@code 5m}), never ISO-8601's {@code
 * PT30S}: what messages, {@code factory config}, status and MCP answers echo of a duration.
 *
 * @since 0.1.0
 */
public final class DurationText {

    private DurationText() {
    }

    /** {@code duration} in its largest whole unit: {@code 1500ms}, {@code 30s}, {@code 5m}, {@code 2h}, {@code 30d}. */
    public static String of(Duration duration) {
        long millis = duration.toMillis();
        if (millis % 1000 != 0) {
            return millis + "ms";
        }
        long seconds = millis / 1000;
        if (seconds != 0 && seconds % 86_400 == 0) {
            return seconds / 86_400 + "d";
        }
        if (seconds != 0 && seconds % 3600 == 0) {
            return seconds / 3600 + "h";
        }
        if (seconds != 0 && seconds % 60 == 0) {
            return seconds / 60 + "m";
        }
        return seconds + "s";
    }
}
