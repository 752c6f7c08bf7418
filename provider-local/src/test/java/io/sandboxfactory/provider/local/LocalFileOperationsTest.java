package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.files.FileOperationsSandbox.FileStat;
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
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every file operation of the local provider against links: a static link to a host directory is
 * refused (or, at the last component of a delete, removed itself), and a directory swapped for a
 * link in the middle of an operation never leads it outside: the swap happens while the
 * operation's content is read, after its walk, and the outside directory must stay as it was.
 */
class LocalFileOperationsTest {

    @TempDir
    Path temp;
    TestBed bed;
    LocalSandbox sandbox;
    Path root;
    String rootPath;
    Path outside;

    @BeforeEach
    void start() throws IOException {
        bed = new TestBed(temp);
        sandbox = bed.sandbox("ops");
        sandbox.start();
        root = Files.createDirectories(sandbox.directory().resolve("repo"));
        rootPath = root.toString();
        outside = Files.createDirectories(temp.resolve("host"));
        Files.writeString(outside.resolve("secret.txt"), "secret");
        Files.createDirectories(root.resolve("d"));
        Files.writeString(root.resolve("d/inside.txt"), "inside");
    }

    @AfterEach
    void stop() {
        bed.close();
    }

    private void assertOutsideUntouched() throws IOException {
        try (Stream<Path> entries = Files.list(outside)) {
            assertThat(entries).containsExactly(outside.resolve("secret.txt"));
        }
        assertThat(Files.readString(outside.resolve("secret.txt"))).isEqualTo("secret");
    }

    private static InputStream text(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.UTF_8));
    }

    /** Content whose first read swaps {@code d} for a link to the outside directory. */
    private InputStream swappingWhenRead(String text) {
        AtomicBoolean swapped = new AtomicBoolean();
        return new InputStream() {
            final InputStream content = text(text);

            @Override
            public int read() throws IOException {
                swap();
                return content.read();
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                swap();
                return content.read(b, off, len);
            }

            private void swap() throws IOException {
                if (swapped.compareAndSet(false, true)) {
                    swapForLink();
                }
            }
        };
    }

    private void swapForLink() throws IOException {
        Files.move(root.resolve("d"), root.resolve("d.real"));
        Files.createSymbolicLink(root.resolve("d"), outside);
    }

    @Test
    void operationsWorkInsideTheRootAndFollowLinksThatStayInside() throws IOException {
        Files.createSymbolicLink(root.resolve("alias"), Path.of("d"));
        sandbox.write(rootPath, "alias/new.txt", text("hello"), -1);
        assertThat(Files.readString(root.resolve("d/new.txt"))).isEqualTo("hello");
        sandbox.append(rootPath, "d/new.txt", text(" world"));
        assertThat(Files.readString(root.resolve("d/new.txt"))).isEqualTo("hello world");
        assertThat(sandbox.list(rootPath, "alias").stream().map(FileStat::name)).containsExactlyInAnyOrder("inside.txt", "new.txt");
        assertThat(sandbox.stat(rootPath, "alias/new.txt").size()).isEqualTo(11);
        assertThat(sandbox.resolve(rootPath, "alias/new.txt")).isEqualTo(new FileTransferSandbox.Resolution(
                root.toRealPath().resolve("d/new.txt").toString(), FileTransferSandbox.Kind.FILE));
        sandbox.mkdirs(rootPath, "a/b/c");
        assertThat(root.resolve("a/b/c")).isDirectory();
        sandbox.write(rootPath, "x/y/z.txt", text("deep"), 0600);
        assertThat(Files.readString(root.resolve("x/y/z.txt"))).isEqualTo("deep");
        sandbox.move(rootPath, "x/y/z.txt", "m/moved.txt");
        assertThat(Files.readString(root.resolve("m/moved.txt"))).isEqualTo("deep");
        assertThatThrownBy(() -> sandbox.delete(rootPath, "a", false)).isInstanceOf(SandboxFileException.class)
                .extracting(e -> ((SandboxFileException) e).errorCode().name()).isEqualTo("DIRECTORY_NOT_EMPTY");
        sandbox.delete(rootPath, "a", true);
        assertThat(root.resolve("a")).doesNotExist();
    }

    @Test
    void aStaticLinkToAHostDirectoryIsRefusedByEveryOperation() throws IOException {
        Files.createSymbolicLink(root.resolve("out"), outside);
        List<Runnable> attempts = List.of(
                () -> sandbox.write(rootPath, "out/pwned", text("x"), -1),
                () -> sandbox.append(rootPath, "out/secret.txt", text("x")),
                () -> sandbox.list(rootPath, "out"),
                () -> sandbox.stat(rootPath, "out/secret.txt"),
                () -> sandbox.resolve(rootPath, "out"),
                () -> sandbox.mkdirs(rootPath, "out/dir"),
                () -> sandbox.delete(rootPath, "out/secret.txt", false),
                () -> sandbox.move(rootPath, "out/secret.txt", "stolen"),
                () -> sandbox.move(rootPath, "d/inside.txt", "out/planted"));
        for (Runnable attempt : attempts) {
            assertThatThrownBy(attempt::run).isInstanceOf(PathOutsideRootException.class).hasMessageContaining("through a symbolic link");
        }
        // A link as the entry itself: delete removes the link, never what it points to.
        sandbox.delete(rootPath, "out", true);
        assertThat(root.resolve("out")).doesNotExist();
        assertOutsideUntouched();
    }

    @Test
    void aLinkInsideADeletedTreeIsRemovedNotFollowed() throws IOException {
        Files.createSymbolicLink(root.resolve("d/out"), outside);
        sandbox.delete(rootPath, "d", true);
        assertThat(root.resolve("d")).doesNotExist();
        assertOutsideUntouched();
    }

    @Test
    void aDirectorySwappedDuringAWriteKeepsTheWriteInTheDirectoryItOpened() throws IOException {
        sandbox.write(rootPath, "d/raced.txt", swappingWhenRead("raced"), -1);
        assertThat(Files.readString(root.resolve("d.real/raced.txt"))).isEqualTo("raced");
        assertOutsideUntouched();
    }

    @Test
    void aDirectorySwappedDuringAnAppendKeepsItInTheDirectoryItOpened() throws IOException {
        sandbox.append(rootPath, "d/inside.txt", swappingWhenRead("+"));
        assertThat(Files.readString(root.resolve("d.real/inside.txt"))).isEqualTo("inside+");
        assertOutsideUntouched();
    }

    @Test
    void aDirectorySwappedDuringACopyInFailsTheLaterEntriesInsteadOfFollowing() throws IOException {
        FileTransferSandbox.Source source = new FileTransferSandbox.Source() {
            @Override
            public List<TransferEntry> entries() {
                return List.of(TransferEntry.file("first", 1, 0644), TransferEntry.file("d/second", 1, 0644));
            }

            @Override
            public InputStream open(TransferEntry file) {
                if (file.path().equals("first")) {
                    try {
                        swapForLink();
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
                return text("x");
            }
        };
        assertThatThrownBy(() -> sandbox.copyIn(root.toRealPath().toString(), root.toRealPath().toString(), source))
                .isInstanceOf(PathOutsideRootException.class).hasMessageContaining("'d' on its way is a symbolic link");
        assertOutsideUntouched();
    }

    @Test
    void aSwapDuringACopyOutNeverShowsTheOutsideDirectory() throws IOException {
        String realRoot = root.toRealPath().toString();
        List<String> seen = new java.util.ArrayList<>();
        Files.writeString(root.resolve("a-first.txt"), "a");
        // 'd' is then reported as the link it has become, or fails as changed: never entered.
        try {
            sandbox.copyOut(realRoot, realRoot, (entry, content) -> {
                seen.add(entry.path());
                if (entry.path().endsWith("a-first.txt")) {
                    swapForLink();
                }
            });
        } catch (SandboxFileException e) {
            assertThat(e.errorCode().name()).isEqualTo("FILE_CHANGED");
        }
        assertThat(seen).contains("repo/a-first.txt").noneMatch(name -> name.contains("secret.txt") || name.contains("inside.txt"));
        assertOutsideUntouched();
    }
}
