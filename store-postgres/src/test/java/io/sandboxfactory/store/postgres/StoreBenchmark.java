package io.sandboxfactory.store.postgres;

import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.store.SqliteSessionStore;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.store.api.LeaseAttempt;
import io.sandboxfactory.store.api.LeaseOwner;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.store.api.StoreContext;
import io.sandboxfactory.store.postgres.testing.TestPostgres;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * SQLite against PostgreSQL over loopback, as a factory uses them: the latency of one lease
 * acquisition and one release ({@code tryAcquireLease}, {@code releaseLease}), of a warm open (the
 * session's sandbox already running in this factory: the open's store reads and writes, the lease,
 * and the probe and fetch it runs in the sandbox; no setup) and of the first open on a new factory
 * whose sandbox and setup exist (another process or host coming to it: the same, and a reconnect). The stores take turns, run by run, so
 * load on the machine falls on both alike; prints medians, 10th and 90th percentiles and the ratio
 * of the medians. Not run by the build (the name ends in neither Test nor IT).
 *
 * <p>Needs the test server ({@code scripts/postgres-up.sh}); from the repository root:
 * {@code scripts/store-benchmark.sh [runs]} (default 300; the reopen runs a tenth of them).
 */
public final class StoreBenchmark {

    private StoreBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 300;
        Path tmp = Files.createTempDirectory("store-benchmark");
        String schema = TestPostgres.freshSchema("bench");
        StoreConfig pgConfig = TestPostgres.config(schema, StoreConfig.DEFAULT_LEASE_TTL);
        Map<String, String> pgEnvironment = TestPostgres.storeEnvironment(TestPostgres.url(), schema, StoreConfig.DEFAULT_LEASE_TTL,
                StoreConfig.DEFAULT_CONNECT_TIMEOUT);
        Path repo = Git.bareRepository(tmp.resolve("remotes/site.git"));
        System.out.printf("Store latency, %d runs each (reopen: %d), SQLite (files under %s) vs PostgreSQL %s, on %d cores%n", runs,
                Math.max(5, runs / 10), tmp, TestPostgres.url(), Runtime.getRuntime().availableProcessors());
        try {
            Map<String, double[][]> results = new LinkedHashMap<>();
            try (SessionStore sqlite = SqliteSessionStore.openIn(Files.createDirectories(tmp.resolve("sqlite-leases")));
                 SessionStore postgres = new PostgresStoreProvider().open(pgConfig, new StoreContext(tmp, TestPostgres.environment()))) {
                results.putAll(leases(sqlite, postgres, runs));
            }
            try (SandboxFactory sqlite = factory(tmp, "sqlite", Map.of()); SandboxFactory postgres = factory(tmp, "postgres", pgEnvironment)) {
                SessionSpec spec = SessionSpec.builder("bench").repository(repo.toString()).branch("work").baseBranch("main")
                        .setupCommands("true").build();
                sqlite.openSession(spec);
                postgres.openSession(spec);
                results.put("warm open (sandbox started in this factory)",
                        interleave(runs, () -> time(() -> sqlite.openSession(spec)), () -> time(() -> postgres.openSession(spec))));
                int reopens = Math.max(5, runs / 10);
                results.put("first open on a new factory (sandbox and setup exist)", interleave(reopens,
                        () -> reopen(tmp, "sqlite", Map.of(), spec), () -> reopen(tmp, "postgres", pgEnvironment, spec)));
            }
            print(results);
        } finally {
            try (Connection c = TestPostgres.connect(TestPostgres.url()); Statement s = c.createStatement()) {
                s.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            }
            try (Stream<Path> files = Files.walk(tmp)) {
                files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static Map<String, double[][]> leases(SessionStore sqlite, SessionStore postgres, int runs) {
        LeaseOwner owner = LeaseOwner.forThisProcess();
        Duration ttl = StoreConfig.DEFAULT_LEASE_TTL;
        List<double[]> acquire = new ArrayList<>();
        List<double[]> release = new ArrayList<>();
        for (int i = 0; i < runs + runs / 10; i++) {
            double[] a = new double[2];
            double[] r = new double[2];
            SessionStore[] stores = {sqlite, postgres};
            for (int s = 0; s < 2; s++) {
                String session = "lease-" + (i % 20);
                long start = System.nanoTime();
                LeaseAttempt attempt = stores[s].tryAcquireLease(session, owner, ttl);
                a[s] = millis(start);
                if (!attempt.acquired()) {
                    throw new IllegalStateException("lease of " + session + " not acquired: " + attempt);
                }
                start = System.nanoTime();
                stores[s].releaseLease(session, owner.id(), attempt.fence());
                r[s] = millis(start);
            }
            if (i >= runs / 10) {
                acquire.add(a);
                release.add(r);
            }
        }
        Map<String, double[][]> out = new LinkedHashMap<>();
        out.put("lease acquire (tryAcquireLease)", acquire.toArray(double[][]::new));
        out.put("lease release (releaseLease)", release.toArray(double[][]::new));
        return out;
    }

    private static SandboxFactory factory(Path tmp, String name, Map<String, String> environment) throws Exception {
        Map<String, Object> local = Map.of("root", tmp.resolve("sessions-" + name).toString(),
                "env", Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"), "HOME", tmp.toString()));
        return SandboxFactory.builder().config(FactoryConfig.builder().provider("local").providerSection("local", local).build())
                .stateDirectory(Files.createDirectories(tmp.resolve("state-" + name))).environment(environment).build();
    }

    /** A new factory on the same state, provider root and store, timed for its first open only. */
    private static double reopen(Path tmp, String name, Map<String, String> environment, SessionSpec spec) {
        try (SandboxFactory fresh = factory(tmp, name, environment)) {
            long start = System.nanoTime();
            StartOutcome outcome = fresh.openSession(spec).sandbox().lastStartOutcome().orElseThrow();
            double took = millis(start);
            if (outcome != StartOutcome.CONNECTED) {
                throw new IllegalStateException("expected a reconnect, got " + outcome);
            }
            return took;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@code runs} pairs after a tenth as many unrecorded ones: the two stores in turn. */
    private static double[][] interleave(int runs, Supplier<Double> sqlite, Supplier<Double> postgres) {
        List<double[]> out = new ArrayList<>();
        for (int i = 0; i < runs + Math.max(1, runs / 10); i++) {
            double[] pair = {sqlite.get(), postgres.get()};
            if (i >= Math.max(1, runs / 10)) {
                out.add(pair);
            }
        }
        return out.toArray(double[][]::new);
    }

    private static double time(Runnable work) {
        long start = System.nanoTime();
        work.run();
        return millis(start);
    }

    private static double millis(long startNanos) {
        return (System.nanoTime() - startNanos) / 1e6;
    }

    private static void print(Map<String, double[][]> results) {
        System.out.printf("%-55s %28s %28s %8s%n", "operation (ms)", "SQLite median (p10-p90)", "PostgreSQL median (p10-p90)", "PG/SQL");
        results.forEach((name, pairs) -> {
            double[] sqlite = Arrays.stream(pairs).mapToDouble(p -> p[0]).sorted().toArray();
            double[] postgres = Arrays.stream(pairs).mapToDouble(p -> p[1]).sorted().toArray();
            System.out.printf("%-55s %28s %28s %7.2fx%n", name, summary(sqlite), summary(postgres),
                    percentile(postgres, 50) / percentile(sqlite, 50));
        });
    }

    private static String summary(double[] sorted) {
        return String.format("%.2f (%.2f-%.2f)", percentile(sorted, 50), percentile(sorted, 10), percentile(sorted, 90));
    }

    private static double percentile(double[] sorted, int p) {
        return sorted[Math.min(sorted.length - 1, (int) Math.round(p / 100.0 * (sorted.length - 1)))];
    }
}
