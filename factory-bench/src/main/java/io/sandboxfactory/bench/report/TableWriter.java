package io.sandboxfactory.bench.report;

import io.sandboxfactory.bench.stats.Samples;

import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/** The report as text: one table of every group (Markdown, so it pastes into the README), then the curves and notes. */
public final class TableWriter {

    private final PrintStream out;

    public TableWriter(PrintStream out) {
        this.out = out;
    }

    public void write(BenchReport report) {
        report.machine().forEach((key, value) -> out.printf(Locale.ROOT, "%s: %s%n", key, value));
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
            figures.forEach((name, value) -> out.printf(Locale.ROOT, "%s: %s%n", name, number(value)));
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
