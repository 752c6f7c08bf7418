package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.files.PathOutsideRootException;
import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.api.files.TransferEntry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The local provider's java.nio file transfer on its own, on the real file system: what it writes
 * and reads, and the confinement it keeps even when a caller hands it paths it should not.
 */
class LocalFileTransferTest {

    @TempDir
    Path temp;
    TestBed bed;
    LocalSandbox sandbox;
    Path session;
    Path root;
    Path outside;

    @BeforeEach
    void start() throws IOException {
        bed = new TestBed(temp);
        sandbox = bed.sandbox("files");
        sandbox.start();
        session = sandbox.directory();
        root = Files.createDirectories(session.resolve("repo"));
        outside = Files.createDirectories(temp.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "secret");
    }

    @AfterEach
    void stop() {
        bed.close();
    }

    /** A source of the given entries; a file's content is its path in UTF-8, padded to its size. */
    private static FileTransferSandbox.Source source(TransferEntry... entries) {
        return new FileTransferSandbox.Source() {
            @Override
            public List<TransferEntry> entries() {
                return List.of(entries);
            }

            @Override
            public InputStream open(TransferEntry file) {
                return new ByteArrayInputStream(content(file));
            }
        };
    }

    private static byte[] content(TransferEntry file) {
        byte[] bytes = new byte[(int) file.size()];
        byte[] name = file.path().getBytes(StandardCharsets.UTF_8);
        System.arraycopy(name, 0, bytes, 0, Math.min(name.length, bytes.length));
        return bytes;
    }

    private Map<String, String> copyOut(Path path) {
        Map<String, String> seen = new LinkedHashMap<>();
        sandbox.copyOut(root.toString(), path.toString(), (entry, content) -> seen.put(entry.path(),
                entry.type() + (entry.type() == TransferEntry.Type.SYMLINK ? "->" + entry.linkTarget()
                        : entry.type() == TransferEntry.Type.FILE ? ":" + new String(content.readAllBytes(), StandardCharsets.UTF_8).trim() : "")));
        return seen;
    }

    @Test
    void copiesTreesInAndOutWithModesAndLinks() throws IOException {
        sandbox.copyIn(root.toString(), root.toString(), source(
                TransferEntry.directory("t", 0750),
                TransferEntry.file("t/run.sh", 20, 0755),
                TransferEntry.directory("t/sub", 0755),
                TransferEntry.file("t/sub/empty", 0, 0600),
                TransferEntry.symlink("t/link", "sub/empty")));
        assertThat(Files.readString(root.resolve("t/run.sh")).trim()).isEqualTo("t/run.sh");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(root.resolve("t/run.sh")))).isEqualTo("rwxr-xr-x");
        assertThat(Files.size(root.resolve("t/sub/empty"))).isZero();
        assertThat(Files.readSymbolicLink(root.resolve("t/link"))).isEqualTo(Path.of("sub/empty"));

        assertThat(copyOut(root.resolve("t"))).containsExactlyInAnyOrderEntriesOf(Map.of(
                "t", "DIRECTORY", "t/run.sh", "FILE:t/run.sh", "t/sub", "DIRECTORY", "t/sub/empty", "FILE:", "t/link", "SYMLINK->sub/empty"));
    }

    @Test
    void replacesALinkAtTheTargetInsteadOfWritingThroughIt() throws IOException {
        Files.createSymbolicLink(root.resolve("victim"), outside.resolve("secret.txt"));
        sandbox.copyIn(root.toString(), root.toString(), source(TransferEntry.file("victim", 12, 0644)));
        assertThat(Files.isSymbolicLink(root.resolve("victim"))).isFalse();
        assertThat(Files.readString(root.resolve("victim")).trim()).isEqualTo("victim");
        assertThat(Files.readString(outside.resolve("secret.txt"))).isEqualTo("secret");
    }

    @Test
    void refusesToWriteBelowALinkEvenOneTheSameCopyWrote() throws IOException {
        Files.createSymbolicLink(root.resolve("out"), outside);
        assertThatThrownBy(() -> sandbox.copyIn(root.toString(), root.toString(), source(TransferEntry.file("out/pwned", 5, 0644))))
                .isInstanceOf(PathOutsideRootException.class).hasMessageContaining("'out/pwned'");
        assertThatThrownBy(() -> sandbox.copyIn(root.toString(), root.toString(), source(
                TransferEntry.symlink("fresh", outside.toString()), TransferEntry.file("fresh/pwned", 5, 0644))))
                .isInstanceOf(PathOutsideRootException.class).hasMessageContaining("'fresh/pwned'")
                .hasMessageContaining("below the symbolic link 'fresh' of the same copy");
        try (var files = Files.list(outside)) {
            assertThat(files).containsExactly(outside.resolve("secret.txt"));
        }
    }

    @Test
    void refusesPathsAndRootsOutsideItsBounds() throws IOException {
        Files.createSymbolicLink(root.resolve("out"), outside);
        assertThatThrownBy(() -> sandbox.copyIn(root.toString(), root.resolve("out").toString(), source(TransferEntry.file("x", 1, 0644))))
                .isInstanceOf(PathOutsideRootException.class);
        assertThatThrownBy(() -> copyOut(root.resolve("out/secret.txt"))).isInstanceOf(PathOutsideRootException.class);
        assertThatThrownBy(() -> copyOut(outside.resolve("secret.txt"))).isInstanceOf(PathOutsideRootException.class);
        // The root itself must lie in the session directory.
        assertThatThrownBy(() -> sandbox.copyIn(outside.toString(), outside.toString(), source(TransferEntry.file("x", 1, 0644))))
                .isInstanceOf(PathOutsideRootException.class).hasMessageContaining(session.toString());
        assertThat(outside.resolve("x")).doesNotExist();
        // A link at the path copied out is reported as a link, never followed.
        assertThat(copyOut(root.resolve("out"))).containsExactly(Map.entry("out", "SYMLINK->" + outside));
    }

    @Test
    void neverReplacesADirectoryByAFileOrTheOtherWayRound() throws IOException {
        Files.createDirectories(root.resolve("dir"));
        Files.writeString(root.resolve("file"), "keep");
        assertThatThrownBy(() -> sandbox.copyIn(root.toString(), root.toString(), source(TransferEntry.file("dir", 1, 0644))))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.IS_A_DIRECTORY));
        assertThatThrownBy(() -> sandbox.copyIn(root.toString(), root.toString(), source(TransferEntry.directory("file", 0755))))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.NOT_A_DIRECTORY));
        assertThat(Files.readString(root.resolve("file"))).isEqualTo("keep");
    }

    @Test
    void failsWhenTheContentIsShorterThanAnnouncedAndLeavesNothing() {
        FileTransferSandbox.Source lying = new FileTransferSandbox.Source() {
            @Override
            public List<TransferEntry> entries() {
                return List.of(TransferEntry.file("short", 100, 0644));
            }

            @Override
            public InputStream open(TransferEntry file) {
                return new ByteArrayInputStream(new byte[10]);
            }
        };
        assertThatThrownBy(() -> sandbox.copyIn(root.toString(), root.toString(), lying))
                .isInstanceOf(SandboxFileException.class).hasMessageContaining("ended after 10 of 100 bytes");
        assertThat(root.resolve("short")).doesNotExist();
    }

    @Test
    void resolvesLinksWithoutRunningAnything() throws IOException {
        Files.createDirectories(root.resolve("real"));
        Files.createSymbolicLink(root.resolve("alias"), Path.of("real"));
        Files.createSymbolicLink(root.resolve("out"), outside);
        Files.createSymbolicLink(root.resolve("dangling"), Path.of("not/yet"));
        List<FileTransferSandbox.Resolution> resolved = new ArrayList<>();
        for (String path : List.of("alias", "out/secret.txt", "dangling/x", "real/new")) {
            resolved.add(sandbox.resolve(root.resolve(path).toString()).orElseThrow());
        }
        Path realRoot = root.toRealPath();
        assertThat(resolved).containsExactly(
                new FileTransferSandbox.Resolution(realRoot.resolve("real").toString(), FileTransferSandbox.Kind.DIRECTORY),
                new FileTransferSandbox.Resolution(outside.toRealPath().resolve("secret.txt").toString(), FileTransferSandbox.Kind.FILE),
                new FileTransferSandbox.Resolution(realRoot.resolve("not/yet/x").toString(), FileTransferSandbox.Kind.MISSING),
                new FileTransferSandbox.Resolution(realRoot.resolve("real/new").toString(), FileTransferSandbox.Kind.MISSING));
    }
}
