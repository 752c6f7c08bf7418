package io.sandboxfactory.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.sandboxfactory.bench.stats.Samples;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The report as one JSON document: every path's statistics and raw timings, the curves with their growth exponents, figures and notes. */
public final class JsonReport {

    private final ObjectMapper mapper = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    public void write(BenchReport report, Path file) throws IOException {
        mapper.writeValue(file.toFile(), document(report));
    }

    Map<String, Object> document(BenchReport report) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("machine", report.machine());
        List<Object> groups = new ArrayList<>();
        for (Group group : report.groups()) {
            List<Object> paths = new ArrayList<>();
            for (Samples path : group.samples()) {
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("path", path.name());
                p.put("runs", path.count());
                p.put("medianMillis", path.median());
                p.put("p10Millis", path.percentile(10));
                p.put("p90Millis", path.percentile(90));
                p.put("ratioToBaseline", group.ratio(path));
                p.put("millis", path.sortedMillis());
                paths.add(p);
            }
            groups.add(Map.of("group", group.title(), "baseline", group.baseline(), "paths", paths));
        }
        doc.put("groups", groups);
        List<Object> curves = new ArrayList<>();
        for (Curve curve : report.curves()) {
            Map<String, Object> c = new LinkedHashMap<>();
            c.put("curve", curve.title());
            c.put("x", curve.xLabel());
            c.put("unit", curve.yUnit());
            c.put("points", curve.points());
            double k = curve.growthExponent();
            c.put("growthExponent", Double.isNaN(k) ? null : k);
            curves.add(c);
        }
        doc.put("curves", curves);
        doc.put("figures", report.figures());
        doc.put("notes", report.notes());
        return doc;
    }
}
