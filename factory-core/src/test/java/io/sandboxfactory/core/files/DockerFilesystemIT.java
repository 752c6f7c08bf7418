package io.sandboxfactory.core.files;

import io.sandboxfactory.core.testing.RequiresDocker;
import io.sandboxfactory.api.ExecutableSandbox;
import io.sandboxfactory.provider.docker.DockerSandbox;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The filesystem contract in a real container (busybox + git, network none), through plain
 * commands and through the engine's archive API. One container per transfer mode; every test gets
 * fresh directories in it.
 */
@ExtendWith(RequiresDocker.class)
class DockerFilesystemIT {

    @TestInstance(TestInstance.Lifecycle.PER_CLASS)
    abstract static class OnDocker extends SandboxFilesystemContract {
        DockerSandboxes docker;
        DockerSandbox sandbox;
        String root;
        String outside;

        @BeforeAll
        void startContainer() {
            docker = new DockerSandboxes();
            sandbox = docker.started(docker.sessionId("files"));
        }

        @AfterAll
        void removeContainer() {
            if (docker != null) {
                docker.close();
            }
        }

        @BeforeEach
        void freshDirectories() {
            String id = UUID.randomUUID().toString();
            root = "/workspace/" + id + "/repo";
            outside = "/tmp/outside-" + id;
            sh("mkdir -p " + q(root) + " " + q(outside) + " && printf secret > " + q(outside + "/secret.txt"));
        }

        @Override
        ExecutableSandbox sandbox() {
            return sandbox;
        }

        @Override
        String root() {
            return root;
        }

        @Override
        String outside() {
            return outside;
        }
    }

    @Nested
    class Generic extends OnDocker {
        @Override
        TransferMode mode() {
            return TransferMode.GENERIC;
        }

        @Test
        void forcedGenericIgnoresTheArchiveApi() {
            assertThat(files().usesFastPath()).isFalse();
        }
    }

    @Nested
    class Fast extends OnDocker {
        @Override
        TransferMode mode() {
            return TransferMode.AUTO;
        }

        @Test
        void theDockerSandboxOffersTheArchiveApi() {
            assertThat(files().usesFastPath()).isTrue();
        }
    }
}
