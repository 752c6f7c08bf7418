package io.sandboxfactory.core.testing;

import io.sandboxfactory.api.testing.TestProviderContext;
import io.sandboxfactory.provider.docker.DockerFactorySandbox;
import io.sandboxfactory.provider.docker.DockerProviderConfig;
import io.sandboxfactory.provider.docker.DockerSandboxProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Gate for the Docker integration tests of this module: they need a Docker engine at the default
 * socket and the offline image {@value DockerProviderConfig#DEFAULT_IMAGE}. Without them the class
 * is skipped with a message naming {@code scripts/docker-up.sh}; with {@code CI=true} it fails, so
 * a CI machine without Docker cannot pass by skipping.
 */
public final class RequiresDocker implements BeforeAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        Optional<String> problem = problem();
        if (problem.isEmpty()) {
            return;
        }
        String message = problem.get() + " Run scripts/docker-up.sh to start Docker and build " + DockerProviderConfig.DEFAULT_IMAGE + ".";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new IllegalStateException("CI=true, so the Docker integration tests must run, but: " + message);
        }
        Assumptions.abort("Skipping Docker integration tests: " + message);
    }

    private static Optional<String> problem() {
        DockerFactorySandbox probe = new DockerSandboxProvider().open(DockerProviderConfig.defaults(),
                new TestProviderContext(Path.of(System.getProperty("java.io.tmpdir")), "probe"));
        try {
            probe.dockerClient().inspectImageCmd(DockerProviderConfig.DEFAULT_IMAGE).exec();
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.of("The Docker engine at " + DockerProviderConfig.DEFAULT_HOST + " or its image "
                    + DockerProviderConfig.DEFAULT_IMAGE + " is not usable: " + e.getMessage());
        } finally {
            probe.close();
        }
    }
}
