package io.sandboxfactory.bench.stats;

import java.util.ArrayList;
import java.util.List;

/**
 * Runs the contenders of a group in rounds, one of each per round, the order reversed every other
 * round: load that changes on a shared machine then falls on every path alike, and no path always
 * runs right after the same other one's garbage.
 */
public final class Interleaved {

    private final int rounds;
    private final int warmup;

    public Interleaved(int rounds, int warmup) {
        if (rounds < 1 || warmup < 0) {
            throw new IllegalArgumentException("Rounds " + rounds + " and warm-up " + warmup
                    + " are invalid; there must be at least one round and no negative warm-up.");
        }
        this.rounds = rounds;
        this.warmup = warmup;
    }

    /** The samples of each contender, in the order given. */
    public List<Samples> run(List<Contender> contenders) throws Exception {
        double[][] millis = new double[contenders.size()][rounds];
        for (int round = -warmup; round < rounds; round++) {
            boolean forward = Math.floorMod(round, 2) == 0;
            for (int k = 0; k < contenders.size(); k++) {
                int index = forward ? k : contenders.size() - 1 - k;
                double took = time(contenders.get(index).work());
                contenders.get(index).after().run();
                if (round >= 0) {
                    millis[index][round] = took;
                }
            }
        }
        List<Samples> out = new ArrayList<>();
        for (int k = 0; k < contenders.size(); k++) {
            out.add(new Samples(contenders.get(k).name(), millis[k]));
        }
        return out;
    }

    public static double time(Contender.Work work) throws Exception {
        long start = System.nanoTime();
        work.run();
        return (System.nanoTime() - start) / 1e6;
    }
}
