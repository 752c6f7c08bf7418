package io.sandboxfactory.bench;


import io.sandboxfactory.bench.report.BenchReport;
import io.sandboxfactory.bench.report.Curve;
import io.sandboxfactory.bench.report.Group;
import io.sandboxfactory.bench.stats.Samples;

import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The goals of issue 22 against this run's figures, each a note saying met or missed with the figure. */
final class Goals {

    /** A curve's exponent may exceed 1 by this much before it counts as worse than linear: noise between two medians. */
    private static final double LINEAR_SLACK = 0.15;

    private final BenchReport report;

    Goals(BenchReport report) {
        this.report = report;
    }

    void check() {
        for (String group : List.of(Bench.EXEC_TRUE, Bench.EXEC_TRUE_BACK_TO_BACK)) {
            ratio(group, ExecGroups.LOCAL, 1.10);
            ratio(group, ExecGroups.LOCAL_ISOLATED, 1.25);
        }
        ratio("exec printing 10 MiB", ExecGroups.LOCAL, 1.05);
        ratio("open a checkout on a new branch", "factory run -- true, cold (CLI)", 1.5);
        ratio(ClientGroups.TITLE, ClientGroups.EXEC, 1.0);
        atMost(ClientGroups.TITLE, ClientGroups.VERSION, 200);
        for (Curve curve : report.curves()) {
            double k = curve.growthExponent();
            if (!Double.isNaN(k)) {
                report.note(String.format(Locale.ROOT, "%s: growth exponent %.2f, %s", curve.title(), k,
                        k <= 1 + LINEAR_SLACK ? "no worse than linear" : "WORSE than linear"));
            }
        }
    }

    /** A goal in milliseconds of the path's median, not a ratio. */
    private void atMost(String groupTitle, String path, double goalMillis) {
        group(groupTitle).flatMap(group -> samples(group, path)).ifPresent(samples -> report.note(String.format(Locale.ROOT,
                "goal %s ≤ %.0f ms in '%s': %.0f ms — %s", path, goalMillis, groupTitle, samples.median(),
                samples.median() <= goalMillis ? "met" : "missed")));
    }

    private void ratio(String groupTitle, String path, double goal) {
        Optional<Group> group = group(groupTitle);
        Optional<Samples> samples = group.flatMap(g -> samples(g, path));
        if (samples.isEmpty()) {
            return;
        }
        double ratio = group.get().ratio(samples.get());
        report.note(String.format(Locale.ROOT, "goal %s / %s ≤ %.2f× in '%s': %.2f× — %s", path, group.get().baseline(), goal, groupTitle, ratio,
                ratio <= goal ? "met" : "missed"));
    }

    private Optional<Group> group(String title) {
        return report.groups().stream().filter(g -> g.title().equals(title)).findFirst();
    }

    private static Optional<Samples> samples(Group group, String path) {
        return group.samples().stream().filter(s -> s.name().equals(path)).findFirst();
    }

}
