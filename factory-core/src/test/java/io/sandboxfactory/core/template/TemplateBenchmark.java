package io.sandboxfactory.core.template;

import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.SessionSpecBuilder;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.GitHttpServer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Cold opens with and without a template, a warm reopen, and a clone through the host object cache
 * against a full clone, on the local provider, over a loopback {@code http://} git server (with a
 * token, as a private repository), for a repository of 48 MB of incompressible files and a setup
 * of 10 s; prints the times and the ratios against the goals of issue 21. Not a test; the build
 * never runs it. The templated open and the warm reopen are measured in interleaved rounds
 * (argument 1, default 7), each by a new factory as a new process would, and compared by their
 * medians; the rest once each.
 *
 * <p>Run from the repository root: {@code scripts/template-benchmark.sh [rounds]} (compiles offline
 * and runs this class). It prints the load average before and after, and when each phase of the
 * last templated open and warm reopen began; with {@code BENCH_COMMANDS=1} each command too.
 */
public final class TemplateBenchmark {

    private static final int FILES = 48;
    private static final int FILE_BYTES = 1024 * 1024;
    private static final String TOKEN = "bench-token";
    private static final String SETUP = "sleep 10 && mkdir -p node_modules && echo ok > node_modules/dep";

    private TemplateBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        String loadBefore = loadAverage();
        Path work = Files.createTempDirectory("template-bench");
        Path projects = Files.createDirectories(work.resolve("projects"));
        seed(work, projects.resolve("big.git"));
        try (GitHttpServer server = new GitHttpServer(projects, TOKEN)) {
            String url = server.url("big.git");
            Path plainState = work.resolve("plain");
            Path cacheState = work.resolve("cache");
            Files.createDirectories(cacheState);
            Path cacheConfig = Files.writeString(work.resolve("cache.yaml"), "cache:\n  enabled: true\n");
            Path plainConfig = Files.writeString(work.resolve("plain.yaml"), "{}\n");

            long coldWithout;
            long fullClone;
            long cachedClone;
            List<Long> templated = new ArrayList<>();
            List<Long> warm = new ArrayList<>();
            String templatedPhases = "";
            String warmPhases = "";
            PhaseClock clock = new PhaseClock();
            try (SandboxFactory factory = factory(plainState, plainConfig, clock)) {
                coldWithout = time(() -> factory.openSession(spec("cold", url).useTemplates(false).build()));
                fullClone = time(() -> factory.openSession(SessionSpec.builder("full-clone").repository(url).branch("b")
                        .useTemplates(false).build()));
                SandboxTemplate template = factory.buildTemplate(TemplateRequest.of(url).withSetup(List.of(SETUP)));
                Path ready = plainState.resolve("sessions/.template-staging/ready").resolve(template.name());
                // Interleaved rounds, each open by a new factory as a new `factory open` process makes it: a
                // cold open from the template (taking its ready copy, which that factory refills before it
                // closes), then a warm reopen of that session.
                for (int round = 0; round < rounds; round++) {
                    String id = "templated-" + round;
                    awaitReadyCopy(ready);
                    SessionHandle[] opened = new SessionHandle[1];
                    try (SandboxFactory fresh = factory(plainState, plainConfig, clock.reset())) {
                        templated.add(time(() -> opened[0] = fresh.openSession(spec(id, url).build())));
                        templatedPhases = clock.breakdown(id);
                    }
                    if (!opened[0].template().equals(java.util.Optional.of(template.name()))) {
                        throw new IllegalStateException("the templated open did not use the template");
                    }
                    try (SandboxFactory again = factory(plainState, plainConfig, clock.reset())) {
                        warm.add(time(() -> again.openSession(spec(id, url).build())));
                        warmPhases = clock.breakdown(id);
                    }
                }
            }
            try (SandboxFactory factory = factory(cacheState, cacheConfig, new PhaseClock())) {
                factory.openSession(SessionSpec.builder("prime").repository(url).branch("b").build());
                cachedClone = time(() -> factory.openSession(SessionSpec.builder("cached-clone").repository(url).branch("b").build()));
            }
            long coldWith = median(templated);
            long warmMedian = median(warm);
            System.out.printf("load average before: %s%n", loadBefore);
            System.out.printf("repository: %d MB over %s; setup: %s%n", FILES * FILE_BYTES / (1024 * 1024), url, SETUP);
            System.out.printf("cold open without template: %6d ms%n", coldWithout);
            System.out.printf("cold open with template:    %6d ms   ratio %.3f (goal <= 0.15)   median of %s%n", coldWith,
                    (double) coldWith / coldWithout, templated);
            System.out.printf("warm reopen:                %6d ms   template/warm %.2f (goal <= 1.3)   median of %s%n", warmMedian,
                    (double) coldWith / warmMedian, warm);
            System.out.printf("full clone (no setup):      %6d ms%n", fullClone);
            System.out.printf("clone through the cache:    %6d ms   ratio %.3f (goal <= 0.30)%n", cachedClone, (double) cachedClone / fullClone);
            System.out.printf("last templated open, ms from the open's start at each phase: %s%n", templatedPhases);
            System.out.printf("last warm reopen, ms from the open's start at each phase:    %s%n", warmPhases);
            System.out.printf("load average after: %s%n", loadAverage());
        } finally {
            new ProcessBuilder("rm", "-rf", work.toString()).inheritIO().start().waitFor();
        }
    }

    private static SandboxFactory factory(Path state, Path config, PhaseClock clock) {
        return SandboxFactory.builder().provider("local").environment(Map.of()).config(config).stateDirectory(state)
                .repositoryToken(() -> TOKEN).sessionListener(clock).build();
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static void awaitReadyCopy(Path ready) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.MINUTES.toNanos(2);
        while (!Files.isDirectory(ready) || isEmpty(ready)) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("no ready copy of the template appeared at " + ready);
            }
            Thread.sleep(10);
        }
    }

    private static boolean isEmpty(Path dir) throws IOException {
        try (java.util.stream.Stream<Path> children = Files.list(dir)) {
            return children.findAny().isEmpty();
        }
    }

    private static String loadAverage() throws IOException {
        return Files.readString(Path.of("/proc/loadavg")).strip();
    }

    /** When each phase of each session began, since the first phase this clock saw after its reset. */
    private static final class PhaseClock implements SessionListener {
        private final List<String> seen = Collections.synchronizedList(new ArrayList<>());
        private volatile long start = System.nanoTime();

        PhaseClock reset() {
            seen.clear();
            start = System.nanoTime();
            return this;
        }

        @Override
        public void onPhase(String sessionId, SessionPhase phase, String detail) {
            seen.add(sessionId + "\0" + phase + " " + (System.nanoTime() - start) / 1_000_000);
        }

        @Override
        public void onCommand(String sessionId, String commandLine) {
            if (System.getenv("BENCH_COMMANDS") != null) {
                seen.add(sessionId + "\0cmd[" + commandLine.replace('\n', ';').substring(0, Math.min(120, commandLine.length())) + "] "
                        + (System.nanoTime() - start) / 1_000_000);
            }
        }

        String breakdown(String sessionId) {
            synchronized (seen) {
                return seen.stream().filter(e -> e.startsWith(sessionId + "\0")).map(e -> e.substring(sessionId.length() + 1))
                        .collect(Collectors.joining(", "));
            }
        }
    }

    private static SessionSpecBuilder spec(String id, String url) {
        return SessionSpec.builder(id).repository(url).branch("work").setupCommands(SETUP);
    }

    private static long time(Supplier<?> open) {
        long start = System.nanoTime();
        open.get();
        return (System.nanoTime() - start) / 1_000_000;
    }

    /** A bare repository of {@value #FILES} files of random bytes (git cannot compress them). */
    private static void seed(Path work, Path bare) throws IOException {
        Path seed = Files.createDirectories(work.resolve("seed"));
        Git.run(seed, "init", "-q", "-b", "main");
        Random random = new Random(21);
        byte[] bytes = new byte[FILE_BYTES];
        for (int i = 0; i < FILES; i++) {
            random.nextBytes(bytes);
            Files.write(seed.resolve("blob-" + i + ".bin"), bytes);
        }
        Git.run(seed, "add", ".");
        Git.run(seed, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", "big");
        Git.run(work, "clone", "-q", "--bare", seed.toString(), bare.toString());
        Git.run(bare, "config", "http.receivepack", "true");
    }
}
