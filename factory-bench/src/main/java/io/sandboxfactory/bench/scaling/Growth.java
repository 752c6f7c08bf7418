package io.sandboxfactory.bench.scaling;

import io.sandboxfactory.bench.report.Curve;

import java.util.List;

/**
 * What one more session costs, from the last two points of a curve: the first sessions also pay
 * one-time costs (classes initialised, caches filled), so the steady cost is the last step's slope.
 */
final class Growth {

    private Growth() {
    }

    /** {@code (y_last - y_before) / (x_last - x_before)}; NaN with fewer than two points. */
    static double lastSlope(List<Curve.Point> points) {
        if (points.size() < 2) {
            return Double.NaN;
        }
        Curve.Point before = points.get(points.size() - 2);
        Curve.Point last = points.get(points.size() - 1);
        return (last.y() - before.y()) / (last.x() - before.x());
    }

    /** The label of the step {@link #lastSlope} measures, such as {@code "100→1000"}. */
    static String lastStep(List<Integer> sizes) {
        return sizes.size() < 2 ? "one size" : sizes.get(sizes.size() - 2) + "→" + sizes.get(sizes.size() - 1);
    }
}
