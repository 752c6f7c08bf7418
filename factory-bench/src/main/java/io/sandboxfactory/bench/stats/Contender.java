package io.sandboxfactory.bench.stats;

/**
 * One path a group of the bench times: a name for the table, the work of one round (timed) and what
 * undoes it before the next round (not timed: a cold open's sandbox destroyed, a clone removed).
 */
public record Contender(String name, Work work, Work after) {

    /** Work of one round; it throws when the path did not do what it should (a wrong exit code, missing bytes). */
    @FunctionalInterface
    public interface Work {
        void run() throws Exception;
    }

    public static Contender of(String name, Work work) {
        return new Contender(name, work, () -> { });
    }

    public static Contender of(String name, Work work, Work after) {
        return new Contender(name, work, after);
    }
}
