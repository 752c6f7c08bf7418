package io.sandboxfactory.core.files;

import io.sandboxfactory.provider.docker.DockerSandbox;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Comparator;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Copies a tree of 1,000 small files and one 100 MB file into a docker session through the fast
 * path ({@link SandboxFilesystem#copyIn}, the engine's archive API) and through {@code docker cp}
 * on the same container, interleaved, and prints the median of each and their ratio. Not run by
 * the build.
 *
 * <p>Run after {@code scripts/docker-up.sh}, from the repository root:
 * <pre>
 * ./mvnw -q -pl factory-core -am test-compile
 * ./mvnw -q -pl factory-core dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp factory-core/target/test-classes:factory-core/target/classes:factory-api/target/classes:\
 * provider-docker/target/classes:provider-local/target/classes:$(cat /tmp/cp.txt) \
 *     io.sandboxfactory.core.files.DockerCopyBenchmark [iterations]
 * </pre>
 */
public final class DockerCopyBenchmark {

    private static final int SMALL_FILES = 1000;
    private static final long BIG_FILE = 100L * 1024 * 1024;

    private DockerCopyBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 7;
        Path work = Files.createTempDirectory("copy-bench");
        try (DockerSandboxes docker = new DockerSandboxes()) {
            Path tree = smallTree(work.resolve("tree"));
            Path big = LargeFileRoundTripTest.randomFile(work.resolve("big.bin"), BIG_FILE);
            DockerSandbox sandbox = docker.started(docker.sessionId("bench"));
            String container = sandbox.sandboxId().orElseThrow();
            SandboxFilesystem files = SandboxFilesystem.of(sandbox, "/workspace");
            System.out.printf("engine API %s, container %s, %d iterations after 1 warm-up; tree of %d files, one file of %d MiB%n",
                    docker.factory().apiVersion(), sandbox.containerName(), iterations, SMALL_FILES, BIG_FILE >> 20);

            long[][] treeTimes = new long[2][iterations];
            long[][] bigTimes = new long[2][iterations];
            for (int i = -1; i < iterations; i++) {
                String n = i < 0 ? "warm" : Integer.toString(i);
                long fastTree = time(() -> files.copyIn(tree, "fast-tree-" + n));
                long cliTree = time(() -> dockerCp(tree, container + ":/workspace/cli-tree-" + n));
                long cliBig = time(() -> dockerCp(big, container + ":/workspace/cli-big-" + n));
                long fastBig = time(() -> files.copyIn(big, "fast-big-" + n));
                check(files, n);
                files.delete("fast-tree-" + n, true);
                files.delete("cli-tree-" + n, true);
                files.delete("fast-big-" + n);
                files.delete("cli-big-" + n);
                if (i >= 0) {
                    treeTimes[0][i] = fastTree;
                    treeTimes[1][i] = cliTree;
                    bigTimes[0][i] = fastBig;
                    bigTimes[1][i] = cliBig;
                }
            }
            report("tree of " + SMALL_FILES + " files", treeTimes);
            report("one " + (BIG_FILE >> 20) + " MiB file", bigTimes);
        } finally {
            try (Stream<Path> walk = Files.walk(work)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    private static void check(SandboxFilesystem files, String n) {
        if (files.list("fast-tree-" + n).size() != files.list("cli-tree-" + n).size()
                || files.stat("fast-big-" + n).size() != BIG_FILE || files.stat("cli-big-" + n).size() != BIG_FILE) {
            throw new IllegalStateException("The copies differ in iteration " + n + ".");
        }
    }

    private static void report(String what, long[][] times) {
        double fast = median(times[0]) / 1e6;
        double cli = median(times[1]) / 1e6;
        System.out.printf("%-22s fast path median %8.1f ms   docker cp median %8.1f ms   ratio %.2f%n", what, fast, cli, fast / cli);
    }

    private static Path smallTree(Path root) throws IOException {
        for (int i = 0; i < SMALL_FILES; i++) {
            Path dir = Files.createDirectories(root.resolve("dir-" + (i % 20)));
            Files.writeString(dir.resolve("file-" + i + ".txt"), ("line " + i + "\n").repeat(1 + i % 50), StandardCharsets.UTF_8);
        }
        return root;
    }

    private static void dockerCp(Path source, String target) {
        try {
            Process process = new ProcessBuilder("docker", "cp", "-q", source.toString(), target).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(5, TimeUnit.MINUTES) || process.exitValue() != 0) {
                throw new IllegalStateException("docker cp failed: " + out);
            }
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static long time(Runnable action) {
        long start = System.nanoTime();
        action.run();
        return System.nanoTime() - start;
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int mid = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2.0;
    }

}
