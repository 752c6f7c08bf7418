package io.sandboxfactory.core.files;

import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.provider.docker.DockerProviderConfig;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.Optional;

/**
 * Gate for tests that need a real Docker engine and the offline test image, as provider-docker's
 * integration tests have it: skipped with a message when either is missing, failed instead when
 * {@code CI=true}, so a CI machine without Docker cannot pass by skipping.
 */
final class RequiresDockerEngine implements BeforeAllCallback {

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
        try (DockerSandboxes docker = new DockerSandboxes()) {
            docker.engine().inspectImageCmd(DockerProviderConfig.DEFAULT_IMAGE).exec();
            return Optional.empty();
        } catch (SandboxException e) {
            return Optional.of(e.getMessage());
        } catch (RuntimeException e) {
            return Optional.of("The Docker engine or the image " + DockerProviderConfig.DEFAULT_IMAGE + " is not available: " + e.getMessage() + ".");
        }
    }
}
