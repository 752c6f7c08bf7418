package io.sandboxfactory.provider.local;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

class TreeCopierTest {

    /** Swaps of the race: each is a few renames, links and looks, microseconds, so the race lasts seconds at most. */
    private static final int SWAPS = 20_000;

    @TempDir
    Path tmp;

    /** One of the two ways to copy. */
    private interface Copier {
        void copy(Path source, Path target, Set<String> skip) throws IOException;
    }

    @Test
    void gitObjectsAreHardLinkedOtherFilesCopiedLinksKeptAndSkippedEntriesLeftOut() throws Exception {
        copiesAsATemplateNeeds(TreeCopier::copy);
    }

    @Test
    void aSessionsDirectoryIsCopiedTheSameWayThroughOpenDirectories() throws Exception {
        copiesAsATemplateNeeds(TreeCopier::copyFromSession);
    }

    /**
     * The attack: while a session's directory is copied for a template, a process swaps one of its
     * directories for a link to a host directory, a bounded number of times. No copy may hold the
     * host directory's file; a copy that met the swap fails.
     */
    @Test
    void aDirectorySwappedForALinkDuringTheCopyNeverBringsHostFilesIntoTheTemplate() throws Exception {
        Path source = tmp.resolve("session");
        // Under .git/objects the copy links files by path, besides reading directories.
        Path d = source.resolve("repo/.git/objects/ab");
        Files.createDirectories(d);
        for (int i = 0; i < 50; i++) {
            Files.writeString(d.resolve("inside-" + i), "inside");
        }
        Path host = Files.createDirectories(tmp.resolve("host"));
        Files.writeString(host.resolve("host-secret"), "secret");
        Path moved = source.resolve("repo/.git/objects/ab.real");
        AtomicBoolean done = new AtomicBoolean();
        Thread swapper = new Thread(() -> {
            try {
                for (int i = 0; i < SWAPS; i++) {
                    Files.move(d, moved);
                    Files.createSymbolicLink(d, host);
                    // Keeps the link in place about as long as the directory: a few looks at it.
                    for (int look = 0; look < 8; look++) {
                        Files.isDirectory(d);
                    }
                    Files.delete(d);
                    Files.move(moved, d);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                done.set(true);
            }
        });
        swapper.start();
        int copies = 0;
        int failed = 0;
        while (!done.get() || copies == 0) {
            Path target = tmp.resolve("copy-" + copies++);
            try {
                TreeCopier.copyFromSession(source, target, Set.of());
            } catch (IOException e) {
                failed++;
            }
            try (Stream<Path> files = Files.walk(target)) {
                assertThat(files.map(p -> p.getFileName().toString())).as("copy %d", copies).doesNotContain("host-secret");
            }
        }
        swapper.join();
        assertThat(copies).isPositive().isGreaterThanOrEqualTo(failed);
        assertThat(host).isDirectoryContaining(p -> p.getFileName().toString().equals("host-secret"));
    }

    private void copiesAsATemplateNeeds(Copier copier) throws Exception {
        Path source = tmp.resolve("source");
        Path object = source.resolve("repo/.git/objects/ab/cdef");
        Files.createDirectories(object.getParent());
        Files.writeString(object, "object");
        Files.writeString(source.resolve("repo/.git/HEAD"), "ref: refs/heads/main\n");
        Path module = source.resolve("repo/node_modules/dep/index.js");
        Files.createDirectories(module.getParent());
        Files.writeString(module, "module.exports = 1;\n");
        Files.createSymbolicLink(source.resolve("repo/link"), Path.of("node_modules/dep/index.js"));
        Path readOnly = source.resolve("repo/read-only");
        Files.createDirectories(readOnly);
        Files.writeString(readOnly.resolve("file"), "kept");
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("r-xr-xr-x"));
        Files.writeString(source.resolve(".sandbox-factory-session"), "s1\n");

        Path target = tmp.resolve("target");
        copier.copy(source, target, Set.of(".sandbox-factory-session"));

        Path copiedObject = target.resolve("repo/.git/objects/ab/cdef");
        assertThat(Files.isSameFile(copiedObject, object)).as("objects are hard links").isTrue();
        Path copiedModule = target.resolve("repo/node_modules/dep/index.js");
        assertThat(copiedModule).hasContent("module.exports = 1;");
        Files.writeString(copiedModule, "changed");
        assertThat(module).as("other files are copies").hasContent("module.exports = 1;");
        assertThat(target.resolve("repo/.git/HEAD")).hasContent("ref: refs/heads/main");
        assertThat(Files.readSymbolicLink(target.resolve("repo/link"))).isEqualTo(Path.of("node_modules/dep/index.js"));
        assertThat(target.resolve("repo/read-only/file")).hasContent("kept");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(target.resolve("repo/read-only")))).isEqualTo("r-xr-xr-x");
        assertThat(Files.exists(target.resolve(".sandbox-factory-session"), LinkOption.NOFOLLOW_LINKS)).isFalse();
        Files.setPosixFilePermissions(readOnly, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(target.resolve("repo/read-only"), PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void aCopiedCheckoutsIndexCarriesTheCopiesStatDataSoGitNeedNotRehashAndADirtyFileStaysDirty() throws Exception {
        Path repo = tmp.resolve("source/repo");
        Files.createDirectories(repo);
        git(repo, "init", "-q", "-b", "main");
        Files.writeString(repo.resolve("a.txt"), "alpha\n");
        Files.writeString(repo.resolve("dirty.txt"), "aaaa\n");
        git(repo, "add", ".");
        git(repo, "-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "x");
        FileTime hourAgo = FileTime.from(Instant.now().minus(Duration.ofHours(1)));
        Files.setLastModifiedTime(repo.resolve("a.txt"), hourAgo);
        Files.setLastModifiedTime(repo.resolve("dirty.txt"), hourAgo);
        git(repo, "update-index", "-q", "--refresh");
        // Changed after the index recorded it, size and all kept: only its mtime tells.
        Files.writeString(repo.resolve("dirty.txt"), "bbbb\n");
        Files.setLastModifiedTime(repo.resolve("dirty.txt"), FileTime.from(Instant.now().minus(Duration.ofHours(2))));

        Path target = tmp.resolve("target");
        TreeCopier.copy(tmp.resolve("source"), target, Set.of());

        Path copy = target.resolve("repo");
        Object inode = Files.getAttribute(copy.resolve("a.txt"), "unix:ino");
        assertThat(inode).isNotEqualTo(Files.getAttribute(repo.resolve("a.txt"), "unix:ino"));
        assertThat(git(copy, "ls-files", "--debug", "--", "a.txt")).contains("ino: " + inode);
        assertThat(git(copy, "ls-files", "--debug", "--", "dirty.txt"))
                .doesNotContain("ino: " + Files.getAttribute(copy.resolve("dirty.txt"), "unix:ino"));
        assertThat(git(copy, "status", "--porcelain")).isEqualTo(" M dirty.txt");
        assertThat(git(copy, "diff", "--stat")).contains("dirty.txt");
    }

    private static String git(Path dir, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("git"));
        command.addAll(List.of(args));
        Process process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor()).as(output).isZero();
        return output.stripTrailing();
    }
}
