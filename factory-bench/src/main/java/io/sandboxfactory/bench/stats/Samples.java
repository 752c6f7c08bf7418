package io.sandboxfactory.bench.stats;

import java.util.Arrays;

/**
 * The timings of one path, in milliseconds, sorted. Percentiles are nearest-rank; the median of an
 * even count is the mean of the middle two.
 */
public record Samples(String name, double[] sortedMillis) {

    public Samples {
        if (sortedMillis.length == 0) {
            throw new IllegalArgumentException("Samples of '" + name + "' are empty; a path needs at least one timing.");
        }
        sortedMillis = sortedMillis.clone();
        Arrays.sort(sortedMillis);
    }

    public static Samples of(String name, double... millis) {
        return new Samples(name, millis);
    }

    public int count() {
        return sortedMillis.length;
    }

    public double median() {
        int n = sortedMillis.length;
        return n % 2 == 1 ? sortedMillis[n / 2] : (sortedMillis[n / 2 - 1] + sortedMillis[n / 2]) / 2;
    }

    public double percentile(int p) {
        if (p < 0 || p > 100) {
            throw new IllegalArgumentException("Percentile " + p + " is invalid; it must be between 0 and 100.");
        }
        int rank = (int) Math.ceil(p / 100.0 * sortedMillis.length);
        return sortedMillis[Math.max(0, Math.min(sortedMillis.length - 1, rank - 1))];
    }

    @Override
    public double[] sortedMillis() {
        return sortedMillis.clone();
    }
}
