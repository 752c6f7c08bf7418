package io.sandboxfactory.bench;

import java.util.List;

/** How much of each part one run measures: rounds per group and the sizes of the scaling curves. */
public record Plan(
        int execRounds,
        int bigRounds,
        int smallFileRounds,
        int openRounds,
        int crowdRounds,
        int warmup,
        List<Integer> liveSessions,
        List<Integer> daemonSessions,
        List<Integer> leaseOpeners,
        int leaseOperations,
        int scalingProbes) {

    /** A full run: 10 to 15 minutes on a shared 2-core machine. */
    public static Plan full() {
        return new Plan(100, 20, 50, 15, 5, 10, List.of(1, 10, 100, 1000), List.of(1, 10, 100), List.of(1, 2, 4, 8, 16, 32), 200, 9);
    }

    /** {@code --quick}: the same table from fewer rounds and curves to 100 sessions, in two or three minutes. */
    public static Plan quick() {
        return new Plan(15, 5, 10, 4, 2, 3, List.of(1, 10, 100), List.of(1, 10), List.of(1, 2, 4, 8), 50, 3);
    }

    /** This plan with {@code rounds} rounds of the exec group ({@code --rounds}). */
    public Plan withExecRounds(int rounds) {
        if (rounds < 1) {
            throw new IllegalArgumentException("--rounds " + rounds + " is invalid; it must be at least 1.");
        }
        return new Plan(rounds, bigRounds, smallFileRounds, openRounds, crowdRounds, warmup, liveSessions, daemonSessions, leaseOpeners,
                leaseOperations, scalingProbes);
    }
}
