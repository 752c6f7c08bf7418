package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.testing.TestProviderContext;
import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandboxContext;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.UUID;

/**
 * Compares running {@code true} through the provider, with its command channel and with one exec
 * per command ({@code execChannel=false}), with {@code docker exec <container> true} on the same
 * container: prints the median of each and their ratios. Not run by the build. For
 * reference it also times the bare Engine API round trips (exec-create, exec-start, exec-inspect of
 * {@code true}, no wrapper): the floor any exec-based provider pays.
 *
 * <p>Run after {@code scripts/docker-up.sh}, from the repository root:
 * <pre>
 * ./mvnw -q -pl provider-docker -am test-compile
 * ./mvnw -q -pl provider-docker dependency:build-classpath -Dmdep.outputFile=/tmp/cp.txt
 * java -cp provider-docker/target/test-classes:provider-docker/target/classes:factory-api/target/classes:$(cat /tmp/cp.txt) \
 *     io.sandboxfactory.provider.docker.DockerExecBenchmark [iterations]
 * </pre>
 */
public final class DockerExecBenchmark {

    private DockerExecBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int warmup = Math.max(10, iterations / 10);
        String owner = "bench-" + UUID.randomUUID();
        DockerProviderConfig config = DockerProviderConfig.builder().execChannel(true).build();
        TestProviderContext context = new TestProviderContext(Path.of("/tmp"), owner);
        try (DockerFactorySandbox factory = new DockerSandboxProvider().open(config, context);
             DockerFactorySandbox perCommand = new DockerSandboxProvider().open(config.toBuilder().execChannel(false).build(), context)) {
            String session = "bench-" + UUID.randomUUID();
            DockerSandbox sandbox = factory.create(FactorySandboxContext.of(session));
            // The same session through the other factory: it connects to the same container.
            DockerSandbox execSandbox = perCommand.create(FactorySandboxContext.of(session));
            try {
                sandbox.start();
                execSandbox.start();
                String container = sandbox.sandboxId().orElseThrow();
                System.out.printf("engine API %s, container %s, %d iterations after %d warm-up%n",
                        factory.apiVersion(), sandbox.containerName(), iterations, warmup);

                DockerClient client = factory.dockerClient();
                long[] provider = new long[iterations];
                long[] providerExec = new long[iterations];
                long[] cli = new long[iterations];
                long[] bare = new long[iterations];
                for (int i = 0; i < warmup; i++) {
                    viaProvider(sandbox);
                    viaProvider(execSandbox);
                    viaCli(container);
                    viaBareApi(client, container);
                }
                // Interleaved so all three see the same machine load.
                for (int i = 0; i < iterations; i++) {
                    provider[i] = viaProvider(sandbox);
                    providerExec[i] = viaProvider(execSandbox);
                    cli[i] = viaCli(container);
                    bare[i] = viaBareApi(client, container);
                }
                double providerMs = median(provider) / 1e6;
                double providerExecMs = median(providerExec) / 1e6;
                double cliMs = median(cli) / 1e6;
                System.out.printf("provider, exec channel:           median %.2f ms%n", providerMs);
                System.out.printf("provider, exec per command:       median %.2f ms%n", providerExecMs);
                System.out.printf("docker exec <c> true (CLI):       median %.2f ms%n", cliMs);
                System.out.printf("bare Engine API exec of true:     median %.2f ms%n", median(bare) / 1e6);
                System.out.printf("ratio provider (channel) / CLI:   %.2f%n", providerMs / cliMs);
                System.out.printf("ratio provider (per exec) / CLI:  %.2f%n", providerExecMs / cliMs);
            } finally {
                sandbox.destroy();
            }
        }
    }

    private static long viaProvider(DockerSandbox sandbox) {
        long start = System.nanoTime();
        CommandResult result = sandbox.executeCommand("true");
        long elapsed = System.nanoTime() - start;
        if (result.exitCode() != 0) {
            throw new IllegalStateException("true failed through the provider: " + result);
        }
        return elapsed;
    }

    private static long viaCli(String container) throws Exception {
        long start = System.nanoTime();
        Process process = new ProcessBuilder("docker", "exec", container, "true").inheritIO().start();
        int exit = process.waitFor();
        long elapsed = System.nanoTime() - start;
        if (exit != 0) {
            throw new IllegalStateException("docker exec true failed with " + exit);
        }
        return elapsed;
    }

    private static long viaBareApi(DockerClient client, String container) throws InterruptedException {
        long start = System.nanoTime();
        String exec = client.execCreateCmd(container).withCmd("true").withAttachStdout(true).withAttachStderr(true)
                .exec().getId();
        client.execStartCmd(exec).exec(new ResultCallback.Adapter<Frame>()).awaitCompletion();
        Long exit = client.inspectExecCmd(exec).exec().getExitCodeLong();
        long elapsed = System.nanoTime() - start;
        if (exit != null && exit != 0) {
            throw new IllegalStateException("true failed through the bare API with " + exit);
        }
        return elapsed;
    }

    private static double median(long[] values) {
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }
}
