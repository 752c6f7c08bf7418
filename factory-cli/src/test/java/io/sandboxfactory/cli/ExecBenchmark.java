package io.sandboxfactory.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Measures the wall time of {@code factory exec <session> -- true} on the local provider against
 * an MCP {@code session_exec} of {@code true} through one running {@code factory mcp} (the round trip
 * of a tool call an agent makes: request written, result read), {@code docker exec <container> true}
 * and {@code sh -c true}: runs them interleaved (one of each
 * per round, so load changes on the machine hit all alike) and prints each one's median, its 10th
 * and 90th percentile, and the ratios of the medians. Not a test; the build never runs it.
 *
 * <p>Run it from the repository root (the {@code factory} script builds the CLI on first use):
 * <pre>
 *   java factory-cli/src/test/java/io/sandboxfactory/cli/ExecBenchmark.java [--runs 20] [--warmup 2]
 *       [--factory ./factory] [--image sandbox-factory/test-base:latest] [--no-docker] [--no-mcp]
 *       [--also 'LABEL=COMMAND ...']...
 * </pre>
 * It makes a one-commit repository and a state directory in a temp directory, opens session
 * {@code bench} there once (the {@code FACTORY_STATE_DIR} of every factory run points at it), starts
 * a container with {@code docker run -d --network none IMAGE}, and removes all of it at the end.
 * Each {@code --also} adds a command to the rounds, split at spaces, with {@code {state}} and
 * {@code {session}} replaced: for example
 * {@code --also 'no-cds=java -XX:TieredStopAtLevel=1 -jar factory-cli/target/factory.jar exec {session} -- true'}.
 * The {@code factory exec} rounds go through the factory daemon that the {@code open} started (the
 * warm-up rounds wait for nothing: a round before it listens runs in process); to see the cost
 * without it, add {@code --also 'no-daemon=env FACTORY_DAEMON=off /abs/path/to/factory exec {session} -- true'}
 * (commands run in the temporary directory, so the path must be absolute).
 */
public final class ExecBenchmark {

    private static final String SESSION = "bench";

    private ExecBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int runs = 20;
        int warmup = 2;
        String factory = "./factory";
        String image = "sandbox-factory/test-base:latest";
        boolean docker = true;
        boolean mcp = true;
        List<String> also = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--runs" -> runs = Integer.parseInt(args[++i]);
                case "--warmup" -> warmup = Integer.parseInt(args[++i]);
                case "--factory" -> factory = args[++i];
                case "--image" -> image = args[++i];
                case "--no-docker" -> docker = false;
                case "--no-mcp" -> mcp = false;
                case "--also" -> also.add(args[++i]);
                default -> throw new IllegalArgumentException("Unknown argument '" + args[i] + "'; see the class comment for usage.");
            }
        }
        if (factory.contains("/")) {
            factory = Path.of(factory).toAbsolutePath().normalize().toString(); // the commands run in a temp directory
        }
        Path work = Files.createTempDirectory("factory-bench");
        Path state = work.resolve("state");
        String container = null;
        McpRoundTrip server = null;
        try {
            Path repo = work.resolve("repo");
            run(work, Map.of(), "git", "init", "-q", repo.toString());
            run(repo, Map.of(), "git", "symbolic-ref", "HEAD", "refs/heads/main");
            run(repo, Map.of(), "git", "-c", "user.name=bench", "-c", "user.email=bench@localhost", "-c", "commit.gpgsign=false",
                    "commit", "-q", "--allow-empty", "-m", "bench");
            Map<String, String> env = Map.of("FACTORY_STATE_DIR", state.toString());
            run(work, env, factory, "--provider", "local", "--quiet", "open", SESSION, "--repo", repo.toString(), "--branch", SESSION);

            Map<String, List<String>> commands = new LinkedHashMap<>();
            commands.put("factory exec", List.of(factory, "--provider", "local", "exec", SESSION, "--", "true"));
            if (docker) {
                String[] lines = run(work, Map.of(), "docker", "run", "-d", "--network", "none", image).strip().split("\n");
                container = lines[lines.length - 1].strip();
                commands.put("docker exec", List.of("docker", "exec", container, "true"));
            }
            commands.put("sh -c true", List.of("sh", "-c", "true"));
            for (String extra : also) {
                int eq = extra.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("--also '" + extra + "' must be LABEL=COMMAND.");
                }
                String line = extra.substring(eq + 1).replace("{state}", state.toString()).replace("{session}", SESSION);
                commands.put(extra.substring(0, eq), Arrays.asList(line.trim().split("\\s+")));
            }

            Map<String, List<Double>> millis = new LinkedHashMap<>();
            commands.keySet().forEach(label -> millis.put(label, new ArrayList<>()));
            if (mcp) {
                server = new McpRoundTrip(work, env, factory);
                millis.put(McpRoundTrip.LABEL, new ArrayList<>());
            }
            for (int round = -warmup; round < runs; round++) {
                for (Map.Entry<String, List<String>> command : commands.entrySet()) {
                    double took = timed(work, env, command.getValue());
                    if (round >= 0) {
                        millis.get(command.getKey()).add(took);
                    }
                }
                if (server != null) {
                    double took = server.execTrue();
                    if (round >= 0) {
                        millis.get(McpRoundTrip.LABEL).add(took);
                    }
                }
            }
            report(millis, runs);
        } finally {
            if (server != null) {
                server.close();
            }
            if (container != null) {
                run(work, Map.of(), "docker", "rm", "-f", container);
            }
            try {
                run(work, Map.of("FACTORY_STATE_DIR", state.toString()), factory, "--provider", "local", "--quiet", "retire", SESSION,
                        "--delete");
            } finally {
                deleteTree(work);
            }
        }
    }

    private static void report(Map<String, List<Double>> millis, int runs) throws IOException {
        String load = Files.isReadable(Path.of("/proc/loadavg")) ? Files.readString(Path.of("/proc/loadavg")).strip() : "unknown";
        System.out.printf(Locale.ROOT, "%d interleaved runs each; load average before the report: %s%n", runs, load);
        System.out.printf(Locale.ROOT, "%-22s %9s %9s %9s%n", "command", "median", "p10", "p90");
        Map<String, Double> medians = new LinkedHashMap<>();
        millis.forEach((label, values) -> {
            List<Double> sorted = values.stream().sorted().toList();
            medians.put(label, percentile(sorted, 50));
            System.out.printf(Locale.ROOT, "%-22s %7.1f ms %6.1f ms %6.1f ms%n", label, percentile(sorted, 50), percentile(sorted, 10),
                    percentile(sorted, 90));
        });
        Double factory = medians.get("factory exec");
        for (Map.Entry<String, Double> other : medians.entrySet()) {
            if (!other.getKey().equals("factory exec")) {
                System.out.printf(Locale.ROOT, "factory exec / %-12s %6.2fx%n", other.getKey(), factory / other.getValue());
            }
        }
    }

    /** One {@code factory mcp} on stdio, spoken to in JSON-RPC lines with the JDK alone. */
    private static final class McpRoundTrip implements AutoCloseable {
        static final String LABEL = "mcp session_exec";

        private final Process process;
        private final java.io.BufferedReader replies;
        private final java.io.Writer requests;
        private int id;

        McpRoundTrip(Path cwd, Map<String, String> env, String factory) throws IOException {
            ProcessBuilder builder = new ProcessBuilder(factory, "--provider", "local", "mcp").directory(cwd.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD);
            builder.environment().putAll(env);
            process = builder.start();
            replies = new java.io.BufferedReader(new java.io.InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            requests = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            call("initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bench\",\"version\":\"1\"}}");
            requests.write("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n");
            requests.flush();
        }

        /** Milliseconds from writing the tool call to reading its result. */
        double execTrue() throws IOException {
            long start = System.nanoTime();
            String reply = call("tools/call", "{\"name\":\"session_exec\",\"arguments\":{\"id\":\"" + SESSION + "\",\"command\":\"true\"}}");
            double took = (System.nanoTime() - start) / 1e6;
            if (!reply.contains("\"exitCode\":0")) {
                throw new IllegalStateException("session_exec of true did not exit 0: " + reply);
            }
            return took;
        }

        private String call(String method, String params) throws IOException {
            int mine = ++id;
            requests.write("{\"jsonrpc\":\"2.0\",\"id\":" + mine + ",\"method\":\"" + method + "\",\"params\":" + params + "}\n");
            requests.flush();
            for (String line = replies.readLine(); line != null; line = replies.readLine()) {
                if (line.startsWith("{\"jsonrpc\":\"2.0\",\"id\":" + mine + ",")) {
                    return line;
                }
            }
            throw new IllegalStateException("factory mcp ended before answering " + method);
        }

        @Override
        public void close() throws IOException {
            requests.close();
            try {
                if (!process.waitFor(1, TimeUnit.MINUTES)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }

    /** Nearest-rank percentile of sorted values; the median of an even count is the mean of the middle two. */
    static double percentile(List<Double> sorted, int p) {
        if (p == 50 && sorted.size() % 2 == 0) {
            return (sorted.get(sorted.size() / 2 - 1) + sorted.get(sorted.size() / 2)) / 2;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.size());
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, rank - 1)));
    }

    /** Wall time from start to exit in milliseconds; output is discarded, a non-zero exit fails the benchmark. */
    private static double timed(Path cwd, Map<String, String> env, List<String> command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.DISCARD);
        builder.environment().putAll(env);
        long start = System.nanoTime();
        Process process = builder.start();
        int exit = process.waitFor();
        double took = (System.nanoTime() - start) / 1e6;
        if (exit != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited with " + exit);
        }
        return took;
    }

    private static String run(Path cwd, Map<String, String> env, String... command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(cwd.toFile()).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(10, TimeUnit.MINUTES) || process.exitValue() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed: " + output);
        }
        return output;
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.delete(path);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        }
    }
}
