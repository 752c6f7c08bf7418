package io.sandboxfactory.bench.report;

import io.sandboxfactory.bench.stats.Samples;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * The report as Markdown: the machine as a list, one table of every group, then the curves, figures and notes. The
 * same text goes to the console and, with {@code --markdown}, into docs/performance.md ({@link MarkdownSection}).
 */
public final class TableWriter {

    private final PrintStream out;

    public TableWriter(PrintStream out) {
        this.out = out;
    }

    /** The report as one string, as {@link #write} prints it. */
    public static String text(BenchReport report) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        new TableWriter(new PrintStream(bytes, true, StandardCharsets.UTF_8)).write(report);
        return bytes.toString(StandardCharsets.UTF_8);
    }

    public void write(BenchReport report) {
        report.machine().forEach((key, value) -> out.printf(Locale.ROOT, "- %s: %s%n", key, value));
        out.println();
        out.println("| group | path | runs | median ms | p90 ms | × baseline |");
        out.println("|---|---|---:|---:|---:|---:|");
        for (Group group : report.groups()) {
            for (Samples path : group.samples()) {
                String ratio = path.name().equals(group.baseline()) ? "baseline" : String.format(Locale.ROOT, "%.2f", group.ratio(path));
                out.printf(Locale.ROOT, "| %s | %s | %d | %s | %s | %s |%n", group.title(), path.name(), path.count(),
                        millis(path.median()), millis(path.percentile(90)), ratio);
            }
        }
        if (!report.curves().isEmpty()) {
            out.println();
            out.println("| curve | points (x: y) | growth exponent (1 = linear) |");
            out.println("|---|---|---:|");
            for (Curve curve : report.curves()) {
                StringBuilder points = new StringBuilder();
                for (Curve.Point p : curve.points()) {
                    points.append(points.length() == 0 ? "" : ", ").append(String.format(Locale.ROOT, "%s: %s", whole(p.x()), number(p.y())));
                }
                out.printf(Locale.ROOT, "| %s (%s by %s) | %s | %.2f |%n", curve.title(), curve.yUnit(), curve.xLabel(), points,
                        curve.growthExponent());
            }
        }
        Map<String, Double> figures = report.figures();
        if (!figures.isEmpty()) {
            out.println();
            figures.forEach((name, value) -> out.printf(Locale.ROOT, "- %s: %s%n", name, number(value)));
        }
        if (!report.notes().isEmpty()) {
            out.println();
            report.notes().forEach(note -> out.println("- " + note));
        }
        out.flush();
    }

    static String millis(double value) {
        return value >= 100 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.2f", value);
    }

    static String number(double value) {
        return Math.abs(value) >= 100 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.3g", value);
    }

    static String whole(double value) {
        return value == Math.rint(value) ? Long.toString((long) value) : Double.toString(value);
    }
}
