package io.sandboxfactory.core.files;

import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.ExecutableSandbox;
import io.sandboxfactory.api.files.PathOutsideRootException;
import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.api.support.Sandboxes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every operation of {@link SandboxFilesystem} against a real sandbox: a subclass supplies the
 * sandbox, a root inside it, a directory outside the root, and the transfer mode. Fixtures are
 * made and checked with the sandbox's own shell, so the same tests run on every provider.
 */
abstract class SandboxFilesystemContract {

    /** Every byte value, twice, in a scrambled order. */
    static final byte[] ALL_BYTES = allBytes();

    @TempDir
    Path host;

    /** A running sandbox. */
    abstract ExecutableSandbox sandbox();

    /** An existing, empty directory inside the sandbox that the filesystem is rooted at. */
    abstract String root();

    /** An existing directory inside the sandbox, outside {@link #root()}, holding {@code secret.txt} ("secret"). */
    abstract String outside();

    abstract TransferMode mode();

    SandboxFilesystem files() {
        return files(b -> b);
    }

    SandboxFilesystem files(Function<SandboxFilesystemBuilder, SandboxFilesystemBuilder> customize) {
        return customize.apply(SandboxFilesystem.builder(sandbox(), root()).transferMode(mode())).build();
    }

    /** Runs a shell script in the sandbox, failing the test on a non-zero exit; returns stdout. */
    String sh(String script) {
        CommandResult result = sandbox().executeCommand(script);
        assertThat(result.exitCode()).as("exit of %s: %s", script, result.stderr()).isZero();
        return result.stdout();
    }

    String q(String path) {
        return Sandboxes.quote(path);
    }

    String inRoot(String relative) {
        return q(root() + "/" + relative);
    }

    private static byte[] allBytes() {
        byte[] bytes = new byte[512];
        for (int i = 0; i < 512; i++) {
            bytes[i] = (byte) ((i * 167 + 13) % 256);
        }
        return bytes;
    }

    // ---- content ------------------------------------------------------------------------------

    @Test
    void writesAndReadsEveryByteValue() {
        SandboxFilesystem files = files();
        files.writeFile("bin/all.dat", ALL_BYTES);
        assertThat(files.readFile("bin/all.dat")).isEqualTo(ALL_BYTES);
        assertThat(sh("od -An -tx1 -v " + inRoot("bin/all.dat") + " | tr -d ' \\n'"))
                .isEqualTo(java.util.HexFormat.of().formatHex(ALL_BYTES));
    }

    @Test
    void writesAndReadsEmptyFiles() {
        SandboxFilesystem files = files();
        files.writeFile("empty", new byte[0]);
        assertThat(files.readFile("empty")).isEmpty();
        assertThat(files.stat("empty").size()).isZero();
        assertThat(files.exists("empty")).isTrue();
        files.writeFile("empty-stream", new ByteArrayInputStream(new byte[0]));
        assertThat(sh("wc -c < " + inRoot("empty-stream")).strip()).isEqualTo("0");
    }

    @Test
    void handlesUnicodeSpacesAndNewlinesInNames() {
        SandboxFilesystem files = files();
        List<String> names = List.of("naïve café ☕.txt", "with space", "new\nline", "-dash", "tab\there", "'quote\"", "*");
        for (String name : names) {
            files.writeText("d/" + name, "content of " + name);
        }
        for (String name : names) {
            assertThat(files.readText("d/" + name)).isEqualTo("content of " + name);
            assertThat(files.exists("d/" + name)).isTrue();
            assertThat(files.stat("d/" + name).size()).isEqualTo(("content of " + name).getBytes(StandardCharsets.UTF_8).length);
        }
        assertThat(files.list("d")).extracting(FileInfo::name).containsExactlyInAnyOrderElementsOf(names);
        files.mkdirs("ü dir/new\nsub");
        assertThat(files.stat("ü dir/new\nsub").type()).isEqualTo(FileType.DIRECTORY);
        files.move("d/new\nline", "ü dir/new\nsub/moved ☕");
        assertThat(files.readText("ü dir/new\nsub/moved ☕")).isEqualTo("content of new\nline");
        files.delete("d/with space");
        assertThat(files.exists("d/with space")).isFalse();
    }

    @Test
    void streamsLargeContentInManyChunks() throws IOException {
        SandboxFilesystem files = files(b -> b.chunkBytes(1000));
        byte[] content = new byte[25_555];
        for (int i = 0; i < content.length; i++) {
            content[i] = ALL_BYTES[i % ALL_BYTES.length];
        }
        files.writeFile("big.dat", new ByteArrayInputStream(content));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        files.readFile("big.dat", out);
        assertThat(out.toByteArray()).isEqualTo(content);
        files.appendFile("big.dat", new ByteArrayInputStream(content));
        assertThat(files.stat("big.dat").size()).isEqualTo(2L * content.length);
        assertThat(sh("ls -A " + inRoot(""))).doesNotContain(".sf-");
    }

    @Test
    void replacesAtomicallyKeepingPermissionsAndLeavesNoTemporaryFiles() {
        SandboxFilesystem files = files();
        files.writeText("run.sh", "echo one\n");
        sh("chmod 750 " + inRoot("run.sh"));
        files.writeText("run.sh", "echo two\n");
        assertThat(files.readText("run.sh")).isEqualTo("echo two\n");
        assertThat(files.stat("run.sh").permissions()).isEqualTo(0750);
        assertThat(sh("ls -A " + inRoot(""))).isEqualTo("run.sh\n");
    }

    @Test
    void writeCreatesParentsAndRefusesDirectories() {
        SandboxFilesystem files = files();
        files.writeText("a/b/c/file.txt", "deep");
        assertThat(files.readText("a/b/c/file.txt")).isEqualTo("deep");
        assertThatThrownBy(() -> files.writeText("a/b", "x"))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.IS_A_DIRECTORY))
                .hasMessageContaining("'a/b'");
        assertThatThrownBy(() -> files.readFile("a/b"))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.IS_A_DIRECTORY));
        assertThatThrownBy(() -> files.readFile("a/missing"))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.NOT_FOUND))
                .hasMessageContaining("'a/missing'");
        assertThatThrownBy(() -> files.writeText("a/b/c/file.txt/under-a-file", "x")).isInstanceOf(SandboxFileException.class);
    }

    @Test
    void appendsCreatingTheFile() {
        SandboxFilesystem files = files();
        files.appendText("log/out.txt", "one\n");
        files.appendFile("log/out.txt", ALL_BYTES);
        byte[] expected = new byte[4 + ALL_BYTES.length];
        System.arraycopy("one\n".getBytes(StandardCharsets.UTF_8), 0, expected, 0, 4);
        System.arraycopy(ALL_BYTES, 0, expected, 4, ALL_BYTES.length);
        assertThat(files.readFile("log/out.txt")).isEqualTo(expected);
        assertThatThrownBy(() -> files.appendText("log", "x"))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.IS_A_DIRECTORY));
    }

    // ---- metadata -------------------------------------------------------------------------------

    @Test
    void listsNamesTypesSizesAndTimes() {
        SandboxFilesystem files = files();
        files.writeText("dir/file.txt", "12345");
        files.writeText("dir/.hidden", "");
        files.mkdirs("dir/sub");
        sh("ln -s file.txt " + inRoot("dir/link") + " && touch -d '2001-02-03 04:05:06' " + inRoot("dir/file.txt"));

        List<FileInfo> entries = files.list("dir");
        assertThat(entries).extracting(FileInfo::name).containsExactly(".hidden", "file.txt", "link", "sub");
        assertThat(entries).extracting(FileInfo::type)
                .containsExactly(FileType.FILE, FileType.FILE, FileType.SYMLINK, FileType.DIRECTORY);
        FileInfo file = entries.get(1);
        assertThat(file.size()).isEqualTo(5);
        assertThat(file.modified().getEpochSecond()).isEqualTo(
                Long.parseLong(sh("stat -c %Y " + inRoot("dir/file.txt")).strip()));
        assertThat(files.list("dir/sub")).isEmpty();
        assertThat(files.list("")).extracting(FileInfo::name).containsExactly("dir");

        assertThatThrownBy(() -> files.list("dir/file.txt"))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.NOT_A_DIRECTORY));
        assertThatThrownBy(() -> files.list("nope"))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.NOT_FOUND));
    }

    @Test
    void statsExistsAndRealpathFollowLinksInsideTheRoot() {
        SandboxFilesystem files = files();
        files.writeText("real/target.txt", "abc");
        sh("ln -s real " + inRoot("alias") + " && ln -s alias/target.txt " + inRoot("chain"));
        assertThat(files.stat("chain").type()).isEqualTo(FileType.FILE);
        assertThat(files.stat("chain").size()).isEqualTo(3);
        assertThat(files.stat("alias").type()).isEqualTo(FileType.DIRECTORY);
        assertThat(files.stat("").type()).isEqualTo(FileType.DIRECTORY);
        assertThat(files.realpath("chain")).isEqualTo("real/target.txt");
        assertThat(files.realpath("./alias/")).isEqualTo("real");
        assertThat(files.realpath("")).isEmpty();
        assertThat(files.realpath("alias/not-yet/deeper")).isEqualTo("real/not-yet/deeper");
        assertThat(files.exists("chain")).isTrue();
        assertThat(files.exists("alias/missing")).isFalse();
        assertThat(files.readText("chain")).isEqualTo("abc");
        assertThatThrownBy(() -> files.stat("missing"))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.NOT_FOUND));
    }

    @Test
    void mkdirsCreatesParentsAndRefusesFiles() {
        SandboxFilesystem files = files();
        files.mkdirs("x/y/z");
        files.mkdirs("x/y/z");
        assertThat(files.stat("x/y/z").isDirectory()).isTrue();
        files.writeText("x/f", "");
        assertThatThrownBy(() -> files.mkdirs("x/f"))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.NOT_A_DIRECTORY));
    }

    @Test
    void deletesFilesDirectoriesAndLinksThemselves() {
        SandboxFilesystem files = files();
        files.writeText("d/keep/file", "kept");
        files.writeText("d/gone", "x");
        files.mkdirs("d/empty");
        sh("ln -s keep " + inRoot("d/link-to-dir"));

        files.delete("d/gone");
        files.delete("d/empty");
        files.delete("d/link-to-dir");
        assertThat(files.list("d")).extracting(FileInfo::name).containsExactly("keep");
        assertThat(files.readText("d/keep/file")).isEqualTo("kept");

        assertThatThrownBy(() -> files.delete("d"))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.DIRECTORY_NOT_EMPTY));
        assertThatThrownBy(() -> files.delete("d/nope"))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.NOT_FOUND));
        assertThatThrownBy(() -> files.delete("."))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("the root");
        files.delete("d", true);
        assertThat(files.list("")).isEmpty();
        assertThat(sh("test -d " + inRoot("") + " && echo yes")).isEqualTo("yes\n");
    }

    @Test
    void movesFilesAndDirectories() {
        SandboxFilesystem files = files();
        files.writeText("a.txt", "A");
        files.writeText("b.txt", "B");
        files.move("a.txt", "new/parent/a2.txt");
        assertThat(files.readText("new/parent/a2.txt")).isEqualTo("A");
        assertThat(files.exists("a.txt")).isFalse();
        files.move("b.txt", "new/parent/a2.txt");
        assertThat(files.readText("new/parent/a2.txt")).isEqualTo("B");
        files.move("new", "renamed");
        assertThat(files.readText("renamed/parent/a2.txt")).isEqualTo("B");
        files.mkdirs("dir");
        files.writeText("c.txt", "C");
        assertThatThrownBy(() -> files.move("c.txt", "dir"))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> {
                    assertThat(e.code()).isEqualTo(SandboxFileException.IS_A_DIRECTORY);
                    assertThat(e.path()).isEqualTo("dir");
                });
        assertThatThrownBy(() -> files.move("missing", "x"))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.NOT_FOUND));
    }

    // ---- copies -------------------------------------------------------------------------------

    @Test
    void copiesTreesInAndOutKeepingContentLinksAndModes() throws IOException {
        Path tree = host.resolve("tree");
        Files.createDirectories(tree.resolve("sub/deeper"));
        Files.write(tree.resolve("bin.dat"), ALL_BYTES);
        Files.write(tree.resolve("empty"), new byte[0]);
        Files.writeString(tree.resolve("sub/naïve name\nwith newline"), "ü");
        Files.writeString(tree.resolve("sub/deeper/run.sh"), "#!/bin/sh\n");
        Files.setPosixFilePermissions(tree.resolve("sub/deeper/run.sh"), PosixFilePermissions.fromString("rwxr-x---"));
        Files.createSymbolicLink(tree.resolve("link"), Path.of("sub/deeper/run.sh"));

        SandboxFilesystem files = files();
        files.mkdirs("dest");
        TransferSummary in = files.copyIn(tree, "dest");
        assertThat(in).isEqualTo(new TransferSummary(4, 3, 1, ALL_BYTES.length + 2 + 10));
        assertThat(files.readFile("dest/tree/bin.dat")).isEqualTo(ALL_BYTES);
        assertThat(files.readText("dest/tree/sub/naïve name\nwith newline")).isEqualTo("ü");
        assertThat(files.stat("dest/tree/sub/deeper/run.sh").permissions()).isEqualTo(0750);
        assertThat(sh("readlink " + inRoot("dest/tree/link"))).isEqualTo("sub/deeper/run.sh\n");

        files.copyIn(tree, "renamed");
        assertThat(files.readFile("renamed/bin.dat")).isEqualTo(ALL_BYTES);
        files.copyIn(tree.resolve("bin.dat"), "single/copy.dat");
        assertThat(files.readFile("single/copy.dat")).isEqualTo(ALL_BYTES);
        files.copyIn(tree.resolve("empty"), "single/copy.dat");
        assertThat(files.readFile("single/copy.dat")).isEmpty();

        Path back = host.resolve("back");
        Files.createDirectories(back);
        TransferSummary out = files.copyOut("dest/tree", back);
        assertThat(out.files()).isEqualTo(4);
        assertThat(out.bytes()).isEqualTo(ALL_BYTES.length + 2 + 10);
        assertThat(Files.readAllBytes(back.resolve("tree/bin.dat"))).isEqualTo(ALL_BYTES);
        assertThat(Files.size(back.resolve("tree/empty"))).isZero();
        assertThat(Files.readString(back.resolve("tree/sub/naïve name\nwith newline"))).isEqualTo("ü");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(back.resolve("tree/sub/deeper/run.sh")))).isEqualTo("rwxr-x---");
        assertThat(Files.readSymbolicLink(back.resolve("tree/link"))).isEqualTo(Path.of("sub/deeper/run.sh"));

        files.copyOut("dest/tree/bin.dat", host.resolve("one/copied.dat"));
        assertThat(Files.readAllBytes(host.resolve("one/copied.dat"))).isEqualTo(ALL_BYTES);
        files.copyOut("", host.resolve("whole"));
        assertThat(Files.readAllBytes(host.resolve("whole/dest/tree/bin.dat"))).isEqualTo(ALL_BYTES);
    }

    @Test
    void copyRefusesADirectoryOntoAFile() throws IOException {
        SandboxFilesystem files = files();
        files.writeText("file", "x");
        Path dir = Files.createDirectories(host.resolve("dir"));
        assertThatThrownBy(() -> files.copyIn(dir, "file"))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.NOT_A_DIRECTORY));
        files.mkdirs("tree/sub");
        Files.writeString(host.resolve("plain"), "x");
        assertThatThrownBy(() -> files.copyOut("tree", host.resolve("plain"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> files.copyOut("missing", host.resolve("x")))
                .isInstanceOfSatisfying(SandboxFileException.class, e -> assertThat(e.code()).isEqualTo(SandboxFileException.NOT_FOUND));
    }

    // ---- confinement ----------------------------------------------------------------------------

    private void assertOutside(org.assertj.core.api.ThrowableAssert.ThrowingCallable call, String path) {
        assertThatThrownBy(call).isInstanceOfSatisfying(PathOutsideRootException.class, e -> {
            assertThat(e.code()).isEqualTo("PATH_OUTSIDE_ROOT");
            assertThat(e.getMessage()).contains("'" + path + "'");
        });
    }

    private void assertOutsideUntouched() {
        assertThat(sh("cat " + q(outside() + "/secret.txt"))).isEqualTo("secret");
        assertThat(sh("ls -A " + q(outside()))).isEqualTo("secret.txt\n");
    }

    @Test
    void refusesDotDotAndAbsolutePathsBeforeRunningAnything() throws IOException {
        SandboxFilesystem files = files();
        Path local = Files.writeString(host.resolve("x"), "x");
        for (String path : List.of("../x", "a/../../x", "..", "/etc/passwd", outside() + "/secret.txt")) {
            assertOutside(() -> files.readFile(path), path);
            assertOutside(() -> files.writeText(path, "pwned"), path);
            assertOutside(() -> files.appendText(path, "pwned"), path);
            assertOutside(() -> files.list(path), path);
            assertOutside(() -> files.stat(path), path);
            assertOutside(() -> files.exists(path), path);
            assertOutside(() -> files.mkdirs(path), path);
            assertOutside(() -> files.delete(path, true), path);
            assertOutside(() -> files.move(path, "here"), path);
            assertOutside(() -> files.realpath(path), path);
            assertOutside(() -> files.copyIn(local, path), path);
            assertOutside(() -> files.copyOut(path, host.resolve("out")), path);
        }
        assertOutsideUntouched();
        assertThat(host.resolve("out")).doesNotExist();
    }

    @Test
    void refusesSymbolicLinksThatLeaveTheRoot() throws IOException {
        SandboxFilesystem files = files();
        String outsideDir = outside();
        sh("ln -s " + q(outsideDir) + " " + inRoot("out-dir")
                + " && ln -s " + q(outsideDir + "/secret.txt") + " " + inRoot("out-file")
                + " && ln -s out-dir " + inRoot("chain1") + " && ln -s chain1 " + inRoot("chain2")
                + " && ln -s " + q(outsideDir + "/not-yet") + " " + inRoot("dangling")
                + " && ln -s ../../../../../../../../" + q(outsideDir.substring(1) + "/made-by-dots") + " " + inRoot("dangling-dots")
                + " && mkdir " + inRoot("inner") + " && ln -s ../out-dir/sub " + inRoot("inner/deep"));
        Path local = Files.writeString(host.resolve("local.txt"), "pwned");
        Path localDir = Files.createDirectories(host.resolve("local-dir"));
        Files.writeString(localDir.resolve("f"), "pwned");

        for (String path : List.of("out-file", "out-dir/secret.txt", "chain2/secret.txt", "out-dir")) {
            assertOutside(() -> files.readFile(path), path);
            assertOutside(() -> files.stat(path), path);
            assertOutside(() -> files.exists(path), path);
            assertOutside(() -> files.realpath(path), path);
            assertOutside(() -> files.copyOut(path, host.resolve("leak")), path);
        }
        for (String path : List.of("out-file", "out-dir/secret.txt", "chain2/new.txt", "dangling", "dangling-dots", "inner/deep/x")) {
            assertOutside(() -> files.writeText(path, "pwned"), path);
            assertOutside(() -> files.writeFile(path, new ByteArrayInputStream(new byte[2_000_000])), path);
            assertOutside(() -> files.appendText(path, "pwned"), path);
            assertOutside(() -> files.mkdirs(path + "/d"), path + "/d");
            assertOutside(() -> files.copyIn(local, path), path);
        }
        for (String path : List.of("out-dir", "chain2", "dangling")) {
            assertOutside(() -> files.list(path), path);
            assertOutside(() -> files.copyIn(localDir, path), path);
            assertOutside(() -> files.move("inner", path + "/moved"), path + "/moved");
            assertOutside(() -> files.delete(path + "/secret.txt"), path + "/secret.txt");
        }
        assertThat(host.resolve("leak")).doesNotExist();
        assertOutsideUntouched();
        assertThat(sh("test -e " + q("/" + outsideDir.substring(1) + "/made-by-dots") + " || echo absent")).isEqualTo("absent\n");

        // The links themselves are entries inside the root: deleting one removes the link only.
        files.delete("out-dir");
        files.delete("chain2");
        assertThat(files.exists("out-dir")).isFalse();
        assertOutsideUntouched();
    }

    @Test
    void aRootThatIsItselfALinkConfinesToItsTarget() {
        sh("mkdir -p " + inRoot("real") + " && ln -s real " + inRoot("alias"));
        SandboxFilesystem files = SandboxFilesystem.builder(sandbox(), root() + "/alias").transferMode(mode()).build();
        files.writeText("f.txt", "through the alias");
        assertThat(sh("cat " + inRoot("real/f.txt"))).isEqualTo("through the alias");
        assertOutside(() -> files.readFile("../alias/f.txt"), "../alias/f.txt");
        assertThat(files.realpath("f.txt")).isEqualTo("f.txt");
    }
}
