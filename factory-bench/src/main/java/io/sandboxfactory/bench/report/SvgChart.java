package io.sandboxfactory.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/**
 * The curves as one SVG, a panel each, on log-log axes: there a linear growth is a line of slope 1,
 * drawn dashed from each curve's first point, so a curve below its dashed line grows less than
 * linearly. Hand-written SVG 1.1, no library.
 */
public final class SvgChart {

    private static final int PANEL_W = 460;
    private static final int PANEL_H = 300;
    private static final int COLUMNS = 2;
    private static final int LEFT = 70;
    private static final int RIGHT = 20;
    private static final int TOP = 40;
    private static final int BOTTOM = 50;

    public void write(List<Curve> curves, Path file) throws IOException {
        Files.writeString(file, render(curves), StandardCharsets.UTF_8);
    }

    String render(List<Curve> curves) {
        int rows = Math.max(1, (curves.size() + COLUMNS - 1) / COLUMNS);
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT,
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                PANEL_W * COLUMNS, PANEL_H * rows));
        svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        for (int i = 0; i < curves.size(); i++) {
            panel(svg, curves.get(i), (i % COLUMNS) * PANEL_W, (i / COLUMNS) * PANEL_H);
        }
        svg.append("</svg>\n");
        return svg.toString();
    }

    private void panel(StringBuilder svg, Curve curve, int ox, int oy) {
        List<Curve.Point> points = curve.points().stream().filter(p -> p.x() > 0 && p.y() > 0).toList();
        svg.append(String.format(Locale.ROOT, "<g transform=\"translate(%d,%d)\">%n", ox, oy));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"20\" font-weight=\"bold\">%s</text>%n", LEFT, escape(curve.title())));
        int w = PANEL_W - LEFT - RIGHT;
        int h = PANEL_H - TOP - BOTTOM;
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" stroke=\"#888\"/>%n", LEFT, TOP, w, h));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s (log)</text>%n", LEFT + w / 2,
                PANEL_H - 12, escape(curve.xLabel())));
        svg.append(String.format(Locale.ROOT, "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">%s (log)</text>%n",
                TOP + h / 2, TOP + h / 2, escape(curve.yUnit())));
        if (points.size() < 2) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">fewer than two points</text>%n</g>%n", LEFT + 10, TOP + 20));
            return;
        }
        Curve.Point first = points.get(0);
        Curve.Point last = points.get(points.size() - 1);
        double linearEnd = first.y() * last.x() / first.x();
        double yMin = Math.min(first.y(), points.stream().mapToDouble(Curve.Point::y).min().orElseThrow()) / 1.5;
        double yMax = Math.max(linearEnd, points.stream().mapToDouble(Curve.Point::y).max().orElseThrow()) * 1.5;
        Scale x = new Scale(first.x(), last.x(), LEFT, LEFT + w);
        Scale y = new Scale(yMin, yMax, TOP + h, TOP);
        for (Curve.Point p : points) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>%n", x.at(p.x()), TOP + h + 16,
                    TableWriter.whole(p.x())));
        }
        for (double tick : new double[] {yMin * 1.5, Math.sqrt(yMin * yMax), yMax / 1.5}) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>%n", LEFT - 4, y.at(tick) + 4,
                    TableWriter.number(tick)));
        }
        svg.append(String.format(Locale.ROOT,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#c33\" stroke-dasharray=\"5,4\"/>%n",
                x.at(first.x()), y.at(first.y()), x.at(last.x()), y.at(linearEnd)));
        StringBuilder line = new StringBuilder();
        for (Curve.Point p : points) {
            line.append(String.format(Locale.ROOT, "%.1f,%.1f ", x.at(p.x()), y.at(p.y())));
            svg.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"#1f5fa8\"><title>%s: %s</title></circle>%n",
                    x.at(p.x()), y.at(p.y()), TableWriter.whole(p.x()), TableWriter.number(p.y())));
        }
        svg.append(String.format(Locale.ROOT, "<polyline points=\"%s\" fill=\"none\" stroke=\"#1f5fa8\" stroke-width=\"2\"/>%n", line.toString().strip()));
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" fill=\"#c33\">dashed: linear growth; exponent %.2f</text>%n",
                LEFT + 6, TOP + 14, curve.growthExponent()));
        svg.append("</g>\n");
    }

    /** A log scale from a value range onto a pixel range. */
    private record Scale(double from, double to, double pixelFrom, double pixelTo) {
        double at(double value) {
            double span = Math.log(to) - Math.log(from);
            double share = span == 0 ? 0.5 : (Math.log(value) - Math.log(from)) / span;
            return pixelFrom + share * (pixelTo - pixelFrom);
        }
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
