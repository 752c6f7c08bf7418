package io.sandboxfactory.bench.report;

import io.sandboxfactory.bench.stats.Samples;

import java.util.List;

/**
 * One table section: paths timed together in interleaved rounds, each compared with the group's
 * baseline (the path the goals are stated against: a raw process, {@code docker cp}, a plain
 * {@code git clone}).
 */
public record Group(String title, String baseline, List<Samples> samples) {

    public Group {
        samples = List.copyOf(samples);
        if (samples.stream().noneMatch(s -> s.name().equals(baseline))) {
            throw new IllegalArgumentException("Baseline '" + baseline + "' of group '" + title + "' is not one of its paths.");
        }
    }

    public Samples baselineSamples() {
        return samples.stream().filter(s -> s.name().equals(baseline)).findFirst().orElseThrow();
    }

    /** The ratio of the medians of {@code path} and the baseline. */
    public double ratio(Samples path) {
        return path.median() / baselineSamples().median();
    }
}
