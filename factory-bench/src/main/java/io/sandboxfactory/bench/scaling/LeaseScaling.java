package io.sandboxfactory.bench.scaling;

import io.sandboxfactory.bench.BenchWorkspace;
import io.sandboxfactory.bench.report.BenchReport;
import io.sandboxfactory.bench.report.Curve;
import io.sandboxfactory.bench.stats.Samples;
import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.core.store.SqliteSessionStore;
import io.sandboxfactory.store.api.LeaseAttempt;
import io.sandboxfactory.store.api.LeaseOwner;
import io.sandboxfactory.store.api.SessionStore;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The SQLite session store's lease cost with 1..N concurrent openers: each opener a store
 * connection and an owner of its own on the one database file (as another factory or process would
 * be) taking and giving back the lease of its own session, all at
 * once; the median and 90th percentile of one take-and-give-back made while all of them are at work.
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
        List<Curve.Point> medians = new ArrayList<>();
        List<Curve.Point> p90s = new ArrayList<>();
        int most = openerCounts.stream().mapToInt(Integer::intValue).max().orElse(1);
        ExecutorService pool = Executors.newFixedThreadPool(most);
        Path database = workspace.directory("leases");
        try {
            for (int openers : openerCounts) {
                Samples samples = round(database, pool, openers);
                medians.add(new Curve.Point(openers, samples.median()));
                p90s.add(new Curve.Point(openers, samples.percentile(90)));
            }
        } finally {
            pool.shutdownNow();
        }
        report.add(new Curve("SQLite lease take + give back, N concurrent openers", "concurrent openers", "median ms", medians));
        report.add(new Curve("SQLite lease take + give back, N concurrent openers, p90", "concurrent openers", "p90 ms", p90s));
    }

    private Samples round(Path database, ExecutorService pool, int openers) throws Exception {
        List<SessionStore> stores = new ArrayList<>();
        try {
            for (int o = 0; o < openers; o++) {
                stores.add(SqliteSessionStore.openIn(database));
            }
            return round(stores, pool);
        } finally {
            for (SessionStore store : stores) {
                store.close();
            }
        }
    }

    private Samples round(List<SessionStore> stores, ExecutorService pool) throws Exception {
        int openers = stores.size();
        LeaseOwner self = LeaseOwner.forThisProcess();
        CountDownLatch go = new CountDownLatch(1);
        CountDownLatch allRunning = new CountDownLatch(openers);
        AtomicBoolean oneDone = new AtomicBoolean();
        List<Future<List<Double>>> runs = new ArrayList<>();
        for (int o = 0; o < openers; o++) {
            LeaseOwner owner = new LeaseOwner(self.id() + "-" + o, self.host(), self.pid(), self.processStart(), self.processStartStamp());
            String session = "lease-" + openers + "-" + o;
            SessionStore store = stores.get(o);
            runs.add(pool.submit(() -> {
                go.await();
                List<Double> millis = new ArrayList<>();
                boolean counted = false;
                // Only operations made while every opener is at work count: on two cores a thread
                // could otherwise finish its share before the last one even starts.
                while (millis.size() < operations && !oneDone.get()) {
                    double took = takeAndGiveBack(store, owner, session);
                    if (!counted) {
                        allRunning.countDown();
                        counted = true;
                    } else if (allRunning.getCount() == 0) {
                        millis.add(took);
                    }
                }
                oneDone.set(true);
                return millis;
            }));
        }
        go.countDown();
        List<Double> all = new ArrayList<>();
        for (Future<List<Double>> run : runs) {
            all.addAll(run.get());
        }
        return new Samples(openers + " openers", all.stream().mapToDouble(Double::doubleValue).toArray());
    }

    private static double takeAndGiveBack(SessionStore store, LeaseOwner owner, String session) {
        long start = System.nanoTime();
        LeaseAttempt attempt = store.tryAcquireLease(session, owner, StoreConfig.DEFAULT_LEASE_TTL);
        if (!attempt.acquired()) {
            throw new IllegalStateException("The free lease of " + session + " was refused: " + attempt);
        }
        store.releaseLease(session, owner.id(), attempt.fence());
        return (System.nanoTime() - start) / 1e6;
    }
}
