package io.sandboxfactory.bench.local;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.bench.LoadAverage;
import io.sandboxfactory.bench.stats.Contender;
import io.sandboxfactory.bench.stats.Interleaved;
import io.sandboxfactory.bench.stats.Samples;
import io.sandboxfactory.provider.local.LocalProviderConfig;
import io.sandboxfactory.provider.local.LocalSandboxProvider;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The local exec of {@code true} as a caller outside the project measures it: the provider opened
 * and its sandbox made through the public API only ({@code FactorySandbox.create(ctx).executeCommand}),
 * against a raw {@code ProcessBuilder} running {@code true} and {@code sh -c true}, back to back in
 * one loop (interleaved, the order reversed every other round) after a long warm-up, without and
 * with isolation. Unlike the bench, whose local rows run among slow paths (Docker, the CLI), every
 * call here follows the previous one at once, so whatever a call leaves for later is paid by the
 * next. Prints median, p90 and the ratio to {@code sh -c true}:
 * {@code scripts/benchmark.sh factory-bench io.sandboxfactory.bench.local.ExecLoop [rounds] [warm-up]}.
 */
public final class ExecLoop {

    static final String RAW_SHELL = "raw ProcessBuilder sh -c true";
    static final String RAW_TRUE = "raw ProcessBuilder true";
    static final String NONE = "local executeCommand true, isolation none";
    static final String NAMESPACES = "local executeCommand true, namespaces";

    private static final CommandOptions OPTIONS = CommandOptions.builder().timeout(Duration.ofMinutes(1)).build();

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int warmup = args.length > 1 ? Integer.parseInt(args[1]) : 500;
        Path work = Files.createTempDirectory("exec-loop");
        String loadBefore = LoadAverage.read();
        List<Samples> samples = measure(work, new Interleaved(rounds, warmup));
        System.out.printf(Locale.ROOT, "%d rounds after %d of warm-up; load average before %s, after %s%n", rounds, warmup, loadBefore,
                LoadAverage.read());
        double baseline = samples.get(0).median();
        for (Samples s : samples) {
            System.out.printf(Locale.ROOT, "%-45s median %6.3f ms  p90 %6.3f ms  %5.2f×%n", s.name(), s.median(), s.percentile(90),
                    s.median() / baseline);
        }
        System.exit(0);
    }

    /** The samples of the raw paths, then the local provider's without isolation and, where bubblewrap works, with it. */
    static List<Samples> measure(Path work, Interleaved rounds) throws Exception {
        try (FactorySandbox none = open(work.resolve("none"), LocalProviderConfig.NONE);
             FactorySandbox isolated = open(work.resolve("namespaces"), null)) {
            List<MastraSandbox<?>> sandboxes = new ArrayList<>(List.of(none.create(FactorySandboxContext.of("loop"))));
            if (isolated.isolation().equals(LocalProviderConfig.NAMESPACES)) {
                sandboxes.add(isolated.create(FactorySandboxContext.of("loop")));
            }
            try {
                sandboxes.forEach(MastraSandbox::start);
                Path directory = Path.of(sandboxes.get(0).workingDirectory().orElseThrow());
                List<Contender> contenders = new ArrayList<>(List.of(
                        Contender.of(RAW_SHELL, () -> raw(directory, "/bin/sh", "-c", "true")),
                        Contender.of(RAW_TRUE, () -> raw(directory, "true")),
                        Contender.of(NONE, () -> run(sandboxes.get(0)))));
                if (sandboxes.size() > 1) {
                    contenders.add(Contender.of(NAMESPACES, () -> run(sandboxes.get(1))));
                }
                return rounds.run(contenders);
            } finally {
                sandboxes.forEach(MastraSandbox::destroy);
            }
        }
    }

    /** The provider as any host opens it: its config record and a context with a state directory. */
    private static FactorySandbox open(Path state, String isolation) throws IOException {
        Files.createDirectories(state);
        ProviderContext context = new ProviderContext() {
            @Override
            public <T> Optional<T> lookup(Class<T> type) {
                return Optional.empty();
            }

            @Override
            public Path stateDirectory() {
                return state;
            }

            @Override
            public String owner() {
                return "exec-loop";
            }
        };
        return new LocalSandboxProvider().open(LocalProviderConfig.defaults().withIsolation(isolation, null), context);
    }

    private static void run(MastraSandbox<?> sandbox) {
        CommandResult result = sandbox.executeCommand("true", List.of(), OPTIONS);
        if (result.exitCode() != 0) {
            throw new IllegalStateException("true exited " + result.exitCode() + " in the local provider: " + result.stderr());
        }
    }

    /** What a caller would write with the JDK alone, in the same directory with the provider's environment (PATH, HOME). */
    private static void raw(Path directory, String... command) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).directory(directory.toFile());
        Map<String, String> env = builder.environment();
        env.keySet().retainAll(List.of("PATH", "HOME"));
        Process process = builder.start();
        process.getOutputStream().close();
        process.getInputStream().readAllBytes();
        if (process.waitFor() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " exited " + process.exitValue() + ".");
        }
    }
}
