package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.SandboxException;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.Optional;

/**
 * Gate for integration tests that need a real Docker engine and the offline test image. When
 * either is missing the test class is skipped with a message saying to run {@code
 * scripts/docker-up.sh}; with the environment variable {@code CI=true} it fails instead, so a CI
 * machine without Docker cannot pass by skipping.
 */
final class RequiresDockerEngine implements BeforeAllCallback {

    @Override
    public void beforeAll(ExtensionContext context) {
        gate(problem(), "true".equalsIgnoreCase(System.getenv("CI")));
    }

    /** Returns when there is no problem; else aborts (skips) the tests, or fails them on CI. */
    static void gate(Optional<String> problem, boolean ci) {
        if (problem.isEmpty()) {
            return;
        }
        String message = problem.get() + " Run scripts/docker-up.sh to start Docker and build "
                + DockerProviderConfig.DEFAULT_IMAGE + ".";
        if (ci) {
            throw new IllegalStateException("CI=true, so the Docker integration tests must run, but: " + message);
        }
        Assumptions.abort("Skipping Docker integration tests: " + message);
    }

    private static Optional<String> problem() {
        try (DockerConnection connection = new DockerConnection(DockerProviderConfig.defaults())) {
            try {
                connection.client().inspectImageCmd(DockerProviderConfig.DEFAULT_IMAGE).exec();
                return Optional.empty();
            } catch (SandboxException e) {
                return Optional.of(e.getMessage());
            } catch (RuntimeException e) {
                if (DockerFailures.isNotFound(e)) {
                    return Optional.of("The test image " + DockerProviderConfig.DEFAULT_IMAGE + " is missing on the engine at "
                            + connection.host() + ".");
                }
                return Optional.of("The Docker engine at " + connection.host() + " does not answer: " + DockerFailures.message(e) + ".");
            }
        }
    }
}
