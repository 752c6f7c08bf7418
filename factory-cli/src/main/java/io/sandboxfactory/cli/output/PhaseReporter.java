package io.sandboxfactory.cli.output;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prints one line per phase of long work on stderr ({@code factory: cloning… done (1.2 s)}) and
 * keeps the phases with their durations for the {@code --json} document.
 */
public final class PhaseReporter {

    /** One finished phase. */
    public record Phase(String name, Duration duration) {
        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("name", name);
            json.put("durationMillis", duration.toMillis());
            return json;
        }
    }

    private final PrintStream err;
    private final boolean quiet;
    private final long origin = System.nanoTime();
    private final List<Phase> phases = new ArrayList<>();
    private String current;
    private long currentStart;

    public PhaseReporter(PrintStream err, boolean quiet) {
        this.err = err;
        this.quiet = quiet;
    }

    /** Ends the running phase, if any, and begins {@code name}. */
    public synchronized void begin(String name) {
        end();
        current = name;
        currentStart = System.nanoTime();
        if (!quiet) {
            err.printf("factory: [%s] %s...%n", format(Duration.ofNanos(currentStart - origin)), name);
            err.flush();
        }
    }

    /** Ends the running phase. */
    public synchronized void end() {
        if (current == null) {
            return;
        }
        Duration took = Duration.ofNanos(System.nanoTime() - currentStart);
        phases.add(new Phase(current, took));
        current = null;
    }

    /** Ends the running phase and prints a final line with the total time. */
    public synchronized void done(String what) {
        end();
        if (!quiet) {
            err.printf("factory: [%s] %s%n", format(Duration.ofNanos(System.nanoTime() - origin)), what);
            err.flush();
        }
    }

    /** Output of a phase (git progress, setup output), passed through unless quiet. */
    synchronized void detail(String chunk) {
        if (!quiet) {
            err.print(chunk);
            err.flush();
        }
    }

    public synchronized List<Phase> phases() {
        return List.copyOf(phases);
    }

    static String format(Duration d) {
        long millis = d.toMillis();
        return millis < 10_000 ? String.format("%.1f s", millis / 1000.0) : (millis / 1000) + " s";
    }
}
