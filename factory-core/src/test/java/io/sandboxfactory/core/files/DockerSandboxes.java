package io.sandboxfactory.core.files;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.model.Container;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.testing.TestProviderContext;
import io.sandboxfactory.provider.docker.DockerFactorySandbox;
import io.sandboxfactory.provider.docker.DockerProviderConfig;
import io.sandboxfactory.provider.docker.DockerSandbox;
import io.sandboxfactory.provider.docker.DockerSandboxProvider;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Real docker-provider sandboxes for the filesystem tests: one provider instance whose containers
 * all carry a run label, so {@link #close()} removes exactly what this run made.
 */
final class DockerSandboxes implements AutoCloseable {

    static final String RUN_LABEL = "sandbox-factory.test-run";

    private final String runId = UUID.randomUUID().toString();
    private final DockerFactorySandbox factory = new DockerSandboxProvider().open(
            DockerProviderConfig.builder().labels(Map.of(RUN_LABEL, runId)).build(),
            new TestProviderContext(Path.of(System.getProperty("java.io.tmpdir")), "it-files-" + runId));

    DockerFactorySandbox factory() {
        return factory;
    }

    /** A session id unique to this run. */
    String sessionId(String hint) {
        return hint + "-" + UUID.randomUUID();
    }

    DockerSandbox sandbox(String sessionId) {
        return factory.create(FactorySandboxContext.of(sessionId));
    }

    DockerSandbox started(String sessionId) {
        DockerSandbox sandbox = sandbox(sessionId);
        sandbox.start();
        return sandbox;
    }

    DockerClient engine() {
        return factory.dockerClient();
    }

    /** Containers of this run, in any state. */
    List<Container> containers() {
        return engine().listContainersCmd().withShowAll(true).withLabelFilter(Map.of(RUN_LABEL, runId)).exec();
    }

    /** Removes every container of this run, then closes the provider. */
    @Override
    public void close() {
        try {
            for (Container c : containers()) {
                engine().removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(true).exec();
            }
        } finally {
            factory.close();
        }
    }
}
