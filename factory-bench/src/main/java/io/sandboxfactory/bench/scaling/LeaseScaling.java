package io.sandboxfactory.bench.scaling;

import io.sandboxfactory.bench.BenchWorkspace;
import io.sandboxfactory.bench.report.BenchReport;
import io.sandboxfactory.bench.report.Curve;
import io.sandboxfactory.bench.stats.Samples;
import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.core.store.LeaseAttempt;
import io.sandboxfactory.core.store.LeaseOwner;
import io.sandboxfactory.core.store.SessionStore;
import io.sandboxfactory.core.store.SqliteSessionStore;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * The SQLite session store's lease cost with 1..N concurrent openers: each opener an owner of its
 * own (as another factory would be) taking and giving back the lease of its own session, all at
 * once; the median of one take-and-give-back at each count.
 */
public final class LeaseScaling {

    private final BenchWorkspace workspace;
    private final int operations;

    /** @param operations how many take-and-give-backs each opener times */
    public LeaseScaling(BenchWorkspace workspace, int operations) {
        this.workspace = workspace;
        this.operations = operations;
    }

    public void measure(List<Integer> openerCounts, BenchReport report) throws Exception {
        List<Curve.Point> points = new ArrayList<>();
        int most = openerCounts.stream().mapToInt(Integer::intValue).max().orElse(1);
        ExecutorService pool = Executors.newFixedThreadPool(most);
        try (SessionStore store = SqliteSessionStore.openIn(workspace.directory("leases"))) {
            for (int openers : openerCounts) {
                points.add(new Curve.Point(openers, round(store, pool, openers).median()));
            }
        } finally {
            pool.shutdownNow();
        }
        report.add(new Curve("SQLite lease take + give back, N concurrent openers", "concurrent openers", "median ms", points));
    }

    private Samples round(SessionStore store, ExecutorService pool, int openers) throws Exception {
        LeaseOwner self = LeaseOwner.forThisProcess();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<double[]>> runs = new ArrayList<>();
        for (int o = 0; o < openers; o++) {
            LeaseOwner owner = new LeaseOwner(self.id() + "-" + o, self.host(), self.pid(), self.processStart());
            String session = "lease-" + openers + "-" + o;
            runs.add(pool.submit(() -> {
                go.await();
                double[] millis = new double[operations];
                for (int i = 0; i < operations; i++) {
                    long start = System.nanoTime();
                    LeaseAttempt attempt = store.tryAcquireLease(session, owner, StoreConfig.DEFAULT_LEASE_TTL);
                    if (!attempt.acquired()) {
                        throw new IllegalStateException("The free lease of " + session + " was refused: " + attempt);
                    }
                    store.releaseLease(session, owner.id(), attempt.fence());
                    millis[i] = (System.nanoTime() - start) / 1e6;
                }
                return millis;
            }));
        }
        go.countDown();
        List<Double> all = new ArrayList<>();
        for (Future<double[]> run : runs) {
            for (double ms : run.get()) {
                all.add(ms);
            }
        }
        return new Samples(openers + " openers", all.stream().mapToDouble(Double::doubleValue).toArray());
    }
}
