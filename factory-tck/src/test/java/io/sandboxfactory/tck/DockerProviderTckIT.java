package io.sandboxfactory.tck;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.provider.docker.DockerFactorySandbox;
import io.sandboxfactory.provider.docker.DockerProviderConfig;
import io.sandboxfactory.provider.docker.DockerSandboxProvider;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The docker provider passes the kit on a real engine. Containers have no network; the kit's
 * fixture repository lives under each test's temporary directory, which is mounted read-only at
 * the same path so the host path is also the clone URL inside the container. Skipped without an
 * engine and the offline image, failed instead when {@code CI=true}.
 */
class DockerProviderTckIT extends ProviderContractTest<DockerProviderConfig> {

    private static final String RUN_LABEL = "sandbox-factory.test-run";
    private static final String RUN_ID = UUID.randomUUID().toString();

    DockerProviderTckIT() {
        super(new DockerSandboxProvider(), dir -> {
            // dir is <test temp>/provider; the fixture repository is under <test temp> as well. The
            // container's user is not root: it traverses the mounted test directory (made 0700) only
            // when others may.
            String shared = dir.getParent().toString();
            try {
                Files.setPosixFilePermissions(dir.getParent(), PosixFilePermissions.fromString("rwxr-xr-x"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return DockerProviderConfig.builder().networkMode("none").labels(Map.of(RUN_LABEL, RUN_ID))
                    .volumes(List.of(shared + ":" + shared + ":ro")).build();
        });
    }

    @BeforeAll
    static void requireDocker() {
        try (DockerFactorySandbox admin = admin()) {
            admin.dockerClient().inspectImageCmd(DockerProviderConfig.DEFAULT_IMAGE).exec();
        } catch (RuntimeException e) {
            String message = "Docker at " + DockerProviderConfig.DEFAULT_HOST + " with image " + DockerProviderConfig.DEFAULT_IMAGE
                    + " is not usable (" + e.getMessage() + "); run scripts/docker-up.sh.";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new IllegalStateException("CI=true, so the docker kit run must run: " + message, e);
            }
            Assumptions.abort("Skipping the docker kit run: " + message);
        }
    }

    @AfterAll
    static void removeContainersOfThisRun() {
        try (DockerFactorySandbox admin = admin()) {
            DockerClient engine = admin.dockerClient();
            for (Container c : engine.listContainersCmd().withShowAll(true).withLabelFilter(Map.of(RUN_LABEL, RUN_ID)).exec()) {
                try {
                    engine.removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(true).exec();
                } catch (NotFoundException | ConflictException gone) {
                    // Already going away.
                }
            }
        }
    }

    private static DockerFactorySandbox admin() {
        return new DockerSandboxProvider().open(DockerProviderConfig.defaults(), new ProviderContext() {
            @Override
            public <T> Optional<T> lookup(Class<T> type) {
                return Optional.empty();
            }

            @Override
            public Path stateDirectory() {
                return Path.of(System.getProperty("java.io.tmpdir"));
            }

            @Override
            public String owner() {
                return "tck-admin";
            }
        });
    }
}
