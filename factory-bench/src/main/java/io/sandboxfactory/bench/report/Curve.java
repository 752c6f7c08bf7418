package io.sandboxfactory.bench.report;

import java.util.List;

/**
 * A scaling curve: a measure ({@code y}) at growing sizes ({@code x}: live sessions, concurrent
 * openers). Points in ascending {@code x}.
 */
public record Curve(String title, String xLabel, String yUnit, List<Point> points) {

    public record Point(double x, double y) {
    }

    public Curve {
        points = List.copyOf(points);
        for (int i = 1; i < points.size(); i++) {
            if (points.get(i).x() <= points.get(i - 1).x()) {
                throw new IllegalArgumentException("Curve '" + title + "' has x " + points.get(i).x()
                        + " after " + points.get(i - 1).x() + "; points must be in ascending x.");
            }
        }
    }

    /**
     * How {@code y} grows with {@code x} between the first and the last point, as the exponent
     * {@code k} of {@code y ~ x^k}: 0 flat, 1 linear, above 1 worse than linear. NaN with fewer than
     * two points or a non-positive {@code y}.
     */
    public double growthExponent() {
        if (points.size() < 2) {
            return Double.NaN;
        }
        Point first = points.get(0);
        Point last = points.get(points.size() - 1);
        if (first.y() <= 0 || last.y() <= 0 || first.x() <= 0) {
            return Double.NaN;
        }
        return Math.log(last.y() / first.y()) / Math.log(last.x() / first.x());
    }
}
