package io.sandboxfactory.cli.output;

import io.sandboxfactory.core.files.TransferProgress;

import java.io.PrintStream;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Progress lines on stderr for a large copy ({@code factory: copying... 45% (90.0 MiB of 200.0
 * MiB)}), at most one a second, nothing for copies under {@link #LARGE} bytes or when quiet.
 */
public final class CopyProgress implements TransferProgress {

    /** Copies smaller than this finish before a progress line would help. */
    static final long LARGE = 16L * 1024 * 1024;
    private static final long INTERVAL_NANOS = 1_000_000_000L;

    private final PrintStream err;
    private final boolean quiet;
    private final LongSupplier clock;
    private long lastLine;

    public CopyProgress(PrintStream err, boolean quiet) {
        this(err, quiet, System::nanoTime);
    }

    /** @param clock nanoseconds, as {@link System#nanoTime()} */
    public CopyProgress(PrintStream err, boolean quiet, LongSupplier clock) {
        this.err = err;
        this.quiet = quiet;
        this.clock = clock;
        this.lastLine = clock.getAsLong();
    }

    @Override
    public void onProgress(long bytes, long totalBytes) {
        long now = clock.getAsLong();
        if (quiet || now - lastLine < INTERVAL_NANOS || Math.max(bytes, totalBytes) < LARGE) {
            return;
        }
        lastLine = now;
        if (totalBytes > 0) {
            err.printf(Locale.ROOT, "factory: copying... %d%% (%s of %s)%n", bytes * 100 / totalBytes, size(bytes), size(totalBytes));
        } else {
            err.printf(Locale.ROOT, "factory: copying... %s%n", size(bytes));
        }
        err.flush();
    }

    public static String size(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        double value = bytes;
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        int unit = -1;
        while (value >= 1024 && unit < units.length - 1) {
            value /= 1024;
            unit++;
        }
        return String.format(Locale.ROOT, "%.1f %s", value, units[unit]);
    }
}
