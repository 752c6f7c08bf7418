package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.testing.TestProviderContext;
import java.nio.file.Path;

/**
 * Run in a forked JVM by {@link DockerEngineIT}: opens the provider with {@code useEnvironment}
 * from the first argument, and prints the endpoint it uses and the API version it negotiated, or
 * the error.
 */
public final class AmbientConfigProbe {

    private AmbientConfigProbe() {
    }

    public static void main(String[] args) {
        DockerProviderConfig config = DockerProviderConfig.builder().useEnvironment(Boolean.parseBoolean(args[0])).build();
        try (DockerFactorySandbox factory = new DockerSandboxProvider().open(config, new TestProviderContext(Path.of("/tmp"), "probe"))) {
            System.out.println("host=" + factory.dockerHost());
            System.out.println("apiVersion=" + factory.apiVersion());
        } catch (RuntimeException e) {
            System.out.println("error=" + e.getMessage());
        }
    }
}
