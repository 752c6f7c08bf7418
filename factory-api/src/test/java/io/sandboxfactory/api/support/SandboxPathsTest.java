package io.sandboxfactory.api.support;

import io.sandboxfactory.api.files.FileTransferSandbox;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The path walk over a fake filesystem described as a map of canonical paths to entries. */
class SandboxPathsTest {

    private final Map<String, SandboxPaths.Entry> fs = new HashMap<>();
    private final Map<String, Integer> asked = new HashMap<>();

    SandboxPathsTest() {
        dir("/");
        dir("/w");
        dir("/w/root");
        dir("/w/root/real");
        file("/w/root/real/f.txt");
        dir("/etc");
        file("/etc/passwd");
        link("/w/root/rel", "real");
        link("/w/root/abs", "/etc");
        link("/w/root/chain", "rel/../abs");
        link("/w/root/dangling", "nowhere/deeper");
        link("/w/root/loop1", "loop2");
        link("/w/root/loop2", "loop1");
        link("/w/root/up", "../../etc/passwd");
    }

    private void dir(String path) {
        fs.put(path, new SandboxPaths.Entry(FileTransferSandbox.Kind.DIRECTORY, null));
    }

    private void file(String path) {
        fs.put(path, new SandboxPaths.Entry(FileTransferSandbox.Kind.FILE, null));
    }

    private void link(String path, String target) {
        fs.put(path, new SandboxPaths.Entry(FileTransferSandbox.Kind.OTHER, target));
    }

    private FileTransferSandbox.Resolution resolve(String path) throws IOException {
        return SandboxPaths.resolve(path, p -> {
            asked.merge(p, 1, Integer::sum);
            return Optional.ofNullable(fs.get(p));
        });
    }

    private static FileTransferSandbox.Resolution at(String path, FileTransferSandbox.Kind kind) {
        return new FileTransferSandbox.Resolution(path, kind);
    }

    @Test
    void resolvesPlainPathsAndTheRoot() throws IOException {
        assertThat(resolve("/")).isEqualTo(at("/", FileTransferSandbox.Kind.DIRECTORY));
        assertThat(resolve("/w/root/real/f.txt")).isEqualTo(at("/w/root/real/f.txt", FileTransferSandbox.Kind.FILE));
        assertThat(resolve("//w/./root//real/")).isEqualTo(at("/w/root/real", FileTransferSandbox.Kind.DIRECTORY));
        assertThat(asked).doesNotContainKey("/");
    }

    @Test
    void followsRelativeAbsoluteAndChainedLinks() throws IOException {
        assertThat(resolve("/w/root/rel/f.txt")).isEqualTo(at("/w/root/real/f.txt", FileTransferSandbox.Kind.FILE));
        assertThat(resolve("/w/root/abs/passwd")).isEqualTo(at("/etc/passwd", FileTransferSandbox.Kind.FILE));
        assertThat(resolve("/w/root/chain")).isEqualTo(at("/etc", FileTransferSandbox.Kind.DIRECTORY));
        assertThat(resolve("/w/root/up")).isEqualTo(at("/etc/passwd", FileTransferSandbox.Kind.FILE));
    }

    @Test
    void appendsWhatIsMissingIncludingBehindDanglingLinks() throws IOException {
        assertThat(resolve("/w/root/new/a/b")).isEqualTo(at("/w/root/new/a/b", FileTransferSandbox.Kind.MISSING));
        assertThat(resolve("/w/root/dangling/x")).isEqualTo(at("/w/root/nowhere/deeper/x", FileTransferSandbox.Kind.MISSING));
        assertThat(resolve("/w/root/real/f.txt/under")).isEqualTo(at("/w/root/real/f.txt/under", FileTransferSandbox.Kind.MISSING));
        // The kernel fails at new/.. (ENOENT); lexically, as mkdir -p would walk it, it ends at /etc.
        assertThat(resolve("/w/root/new/../../../etc")).isEqualTo(at("/etc", FileTransferSandbox.Kind.MISSING));
        assertThat(asked).doesNotContainKey("/w/root/new/a");
    }

    @Test
    void dotDotInTheExistingPartLeavesTheCanonicalParent() throws IOException {
        assertThat(resolve("/w/root/rel/../../root/real")).isEqualTo(at("/w/root/real", FileTransferSandbox.Kind.DIRECTORY));
        assertThat(resolve("/../../etc")).isEqualTo(at("/etc", FileTransferSandbox.Kind.DIRECTORY));
    }

    @Test
    void refusesLoopsAndRelativeInput() {
        assertThatThrownBy(() -> resolve("/w/root/loop1")).isInstanceOf(IOException.class).hasMessageContaining("more than 40");
        assertThatThrownBy(() -> resolve("w/root")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("absolute");
    }
}
