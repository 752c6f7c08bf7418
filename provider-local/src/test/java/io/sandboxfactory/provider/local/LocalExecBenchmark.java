package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.testing.TestProviderContext;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandboxContext;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Not a test: the wall time of a local-provider {@code executeCommand} against a raw {@code
 * ProcessBuilder("/bin/sh", "-c", ...)} that reads stdout whole and waits (the least a caller can do;
 * the commands print nothing on stderr), in one JVM, rounds
 * interleaved so both see the same machine load. Two commands: {@code true}, and one that prints
 * 10 MiB. Prints medians, p10/p90 and the ratio of the medians.
 *
 * <pre>
 * ./mvnw -B -o -q -pl provider-local -am test-compile
 * java -cp provider-local/target/test-classes:provider-local/target/classes:factory-api/target/classes \
 *     io.sandboxfactory.provider.local.LocalExecBenchmark [rounds] [warmup]
 * </pre>
 */
public final class LocalExecBenchmark {

    private static final String TEN_MIB = "head -c 10485760 /dev/zero | tr '\\0' x";

    private LocalExecBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 30;
        Path temp = Files.createTempDirectory("local-exec-bench");
        LocalFactorySandbox factory = (LocalFactorySandbox) new LocalSandboxProvider().open(
                new LocalProviderConfig(temp.resolve("sessions").toString(), null, null, null),
                new TestProviderContext(temp.resolve("state")));
        LocalSandbox sandbox = (LocalSandbox) factory.create(FactorySandboxContext.of("bench"));
        sandbox.start();
        CommandOptions options = CommandOptions.builder().timeout(Duration.ofSeconds(60)).build();
        Map<String, String> env = Map.of("PATH", System.getenv().getOrDefault("PATH", "/usr/bin:/bin"));
        try {
            compare("true", rounds, warmup, () -> raw("true", sandbox.directory(), env),
                    () -> local(sandbox, "true", options));
            compare("10 MiB to stdout", Math.max(10, rounds / 5), Math.max(5, warmup / 3),
                    () -> raw(TEN_MIB, sandbox.directory(), env), () -> local(sandbox, TEN_MIB, options));
        } finally {
            sandbox.destroy();
            factory.close();
        }
    }

    private static void compare(String label, int rounds, int warmup, Supplier<Integer> raw, Supplier<Integer> local) {
        long[] rawTimes = new long[rounds];
        long[] localTimes = new long[rounds];
        for (int i = -warmup; i < rounds; i++) {
            // Alternate which goes first, so neither always runs right after the other's garbage.
            boolean rawFirst = (i & 1) == 0;
            long a = rawFirst ? time(raw) : time(local);
            long b = rawFirst ? time(local) : time(raw);
            if (i >= 0) {
                rawTimes[i] = rawFirst ? a : b;
                localTimes[i] = rawFirst ? b : a;
            }
        }
        Arrays.sort(rawTimes);
        Arrays.sort(localTimes);
        System.out.printf("%-18s %8s %8s %8s%n", label, "p10 ms", "median", "p90 ms");
        print("raw ProcessBuilder", rawTimes);
        print("local exec", localTimes);
        System.out.printf("ratio of medians local/raw: %.3f (%d rounds)%n%n",
                (double) median(localTimes) / median(rawTimes), rounds);
    }

    private static long time(Supplier<Integer> run) {
        long start = System.nanoTime();
        int exit = run.get();
        long took = System.nanoTime() - start;
        if (exit != 0) {
            throw new IllegalStateException("the benchmarked command exited " + exit);
        }
        return took;
    }

    private static void print(String label, long[] sorted) {
        System.out.printf("%-18s %8.3f %8.3f %8.3f%n", label, sorted[sorted.length / 10] / 1e6,
                median(sorted) / 1e6, sorted[sorted.length * 9 / 10] / 1e6);
    }

    private static long median(long[] sorted) {
        return sorted[sorted.length / 2];
    }

    private static int local(LocalSandbox sandbox, String command, CommandOptions options) {
        CommandResult result = sandbox.executeCommand(command, List.of(), options);
        if (result.stdout().isEmpty() && command.equals(TEN_MIB)) {
            throw new IllegalStateException("no output");
        }
        return result.exitCode();
    }

    /** What a caller would write with the JDK alone: stdout read whole, then the exit code. */
    private static int raw(String command, Path cwd, Map<String, String> env) {
        try {
            ProcessBuilder builder = new ProcessBuilder("/bin/sh", "-c", command).directory(cwd.toFile());
            builder.environment().clear();
            builder.environment().putAll(env);
            Process process = builder.start();
            process.getOutputStream().close();
            String out = new String(readAll(process.getInputStream()), StandardCharsets.UTF_8);
            if (out.isEmpty() && command.equals(TEN_MIB)) {
                throw new IllegalStateException("no output");
            }
            return process.waitFor();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static byte[] readAll(InputStream in) {
        try (in) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
