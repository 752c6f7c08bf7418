package io.sandboxfactory.core.files;

import io.sandboxfactory.api.ExecutableSandbox;

import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Run in a forked JVM with a small heap by {@link LargeFileRoundTripTest}: writes a host file into a
 * sandbox and reads it back through the generic (command-only) path. Exits 0 when both directions
 * completed; the test compares checksums.
 *
 * <p>Arguments: {@code local <state-dir> <source> <result>} or {@code docker <session-id> <source> <result>}. Prints
 * the size and SHA-256 of the copy inside the sandbox; the sandbox is removed at the end.
 */
public final class LargeFileRoundTrip {

    private LargeFileRoundTrip() {
    }

    public static void main(String[] args) throws Exception {
        Path source = Path.of(args[2]);
        Path result = Path.of(args[3]);
        System.out.println("max heap " + Runtime.getRuntime().maxMemory() / (1024 * 1024) + " MiB");
        try (Sandboxed sandboxed = Sandboxed.open(args[0], args[1])) {
            SandboxFilesystem files = SandboxFilesystem.builder(sandboxed.sandbox(), sandboxed.root())
                    .transferMode(TransferMode.GENERIC).build();
            try (InputStream in = Files.newInputStream(source)) {
                files.writeFile("large/blob.bin", in);
            }
            try (OutputStream out = Files.newOutputStream(result)) {
                files.readFile("large/blob.bin", out);
            }
            System.out.println("in sandbox: " + files.stat("large/blob.bin").size() + " bytes");
            var sum = sandboxed.sandbox().executeCommand("sha256sum large/blob.bin", java.util.List.of(),
                    io.sandboxfactory.api.CommandOptions.builder().cwd(sandboxed.root()).build());
            System.out.println("sandbox sha256: " + sum.stdout().split(" ")[0]);
        }
    }

    /** The sandbox to use and how to let it go. */
    private interface Sandboxed extends AutoCloseable {
        ExecutableSandbox sandbox();

        String root();

        @Override
        void close();

        static Sandboxed open(String kind, String where) {
            if (kind.equals("local")) {
                var sandbox = LocalSandboxes.started(Path.of(where), "large");
                return new Sandboxed() {
                    public ExecutableSandbox sandbox() {
                        return sandbox;
                    }

                    public String root() {
                        return sandbox.directory().toString();
                    }

                    public void close() {
                        sandbox.destroy();
                    }
                };
            }
            DockerSandboxes docker = new DockerSandboxes();
            var sandbox = docker.started(where);
            return new Sandboxed() {
                public ExecutableSandbox sandbox() {
                    return sandbox;
                }

                public String root() {
                    return sandbox.workingDirectory().orElseThrow();
                }

                public void close() {
                    docker.close();
                }
            };
        }
    }
}
