package io.sandboxfactory.core.files;

import io.sandboxfactory.api.ExecutableSandbox;
import io.sandboxfactory.provider.local.LocalSandbox;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The filesystem contract on the local provider, through plain commands and through its java.nio fast path. */
class LocalFilesystemTest {

    abstract static class OnLocal extends SandboxFilesystemContract {
        @TempDir
        Path state;
        LocalSandbox sandbox;
        Path outside;

        @BeforeEach
        void startSandbox() throws IOException {
            sandbox = LocalSandboxes.started(state, "files");
            Files.createDirectories(sandbox.directory().resolve("repo"));
            // Beside the files' root in the session directory: an isolated session sees nothing of the host beyond it.
            outside = Files.createDirectories(sandbox.directory().resolve("outside"));
            Files.writeString(outside.resolve("secret.txt"), "secret");
        }

        @AfterEach
        void destroy() {
            sandbox.destroy();
        }

        @Override
        ExecutableSandbox sandbox() {
            return sandbox;
        }

        @Override
        String root() {
            return sandbox.directory().resolve("repo").toString();
        }

        @Override
        String outside() {
            return outside.toString();
        }
    }

    @Nested
    class Generic extends OnLocal {
        @Override
        TransferMode mode() {
            return TransferMode.GENERIC;
        }

        @Test
        void forcedGenericIgnoresTheFastPath() {
            assertThat(files().usesFastPath()).isFalse();
        }
    }

    @Nested
    class Fast extends OnLocal {
        @Override
        TransferMode mode() {
            return TransferMode.AUTO;
        }

        @Test
        void theLocalSandboxOffersTheFastPath() {
            assertThat(files().usesFastPath()).isTrue();
        }
    }
}
