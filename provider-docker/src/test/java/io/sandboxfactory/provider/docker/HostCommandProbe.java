package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.testing.TestProviderContext;

import java.nio.file.Path;
import java.util.Map;

/**
 * Run in a forked JVM by {@link DockerHostDeathIT}: starts the sandbox of session {@code args[2]}
 * (owner {@code args[0]}, state directory {@code args[1]}, run label value {@code args[3]},
 * runtime {@code args[4]} or {@code -}, {@code execChannel} {@code args[6]}) and runs {@code args[5]}
 * through the exec channel or an exec of its own, which blocks until the test kills this JVM.
 */
public final class HostCommandProbe {

    private HostCommandProbe() {
    }

    public static void main(String[] args) {
        DockerProviderConfig config = DockerProviderConfig.builder()
                .labels(Map.of(DockerFixture.RUN_LABEL, args[3]))
                .runtime("-".equals(args[4]) ? null : args[4])
                .execChannel(Boolean.parseBoolean(args[6]))
                .build();
        DockerFactorySandbox factory = new DockerSandboxProvider().open(config, new TestProviderContext(Path.of(args[1]), args[0]));
        DockerSandbox sandbox = factory.create(FactorySandboxContext.of(args[2]));
        sandbox.start();
        System.out.println("started");
        System.out.flush();
        sandbox.executeCommand(args[5]);
        System.out.println("ended");
    }
}
