package io.sandboxfactory.bench;


import io.sandboxfactory.bench.report.BenchReport;
import io.sandboxfactory.bench.report.Curve;
import io.sandboxfactory.bench.report.Group;
import io.sandboxfactory.bench.stats.Samples;

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
        ratio("exec true", "local provider executeCommand", 1.10);
        ratio("exec true", ExecGroups.LOCAL_ISOLATED, 1.25);
        ratio("exec printing 10 MiB", "local provider executeCommand", 1.05);
        ratio("open a checkout on a new branch", "factory run -- true, cold (CLI)", 1.5);
        for (Curve curve : report.curves()) {
            double k = curve.growthExponent();
            if (!Double.isNaN(k)) {
                report.note(String.format(Locale.ROOT, "%s: growth exponent %.2f, %s", curve.title(), k,
                        k <= 1 + LINEAR_SLACK ? "no worse than linear" : "WORSE than linear"));
            }
        }
    }

    private void ratio(String groupTitle, String path, double goal) {
        Optional<Group> group = report.groups().stream().filter(g -> g.title().equals(groupTitle)).findFirst();
        Optional<Samples> samples = group.flatMap(g -> g.samples().stream().filter(s -> s.name().equals(path)).findFirst());
        if (samples.isEmpty()) {
            return;
        }
        double ratio = group.get().ratio(samples.get());
        report.note(String.format(Locale.ROOT, "goal %s / %s ≤ %.2f× in '%s': %.2f× — %s", path, group.get().baseline(), goal, groupTitle, ratio,
                ratio <= goal ? "met" : "missed"));
    }

}
