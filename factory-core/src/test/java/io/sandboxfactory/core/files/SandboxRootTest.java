package io.sandboxfactory.core.files;

import io.sandboxfactory.api.files.PathOutsideRootException;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The lexical half of confinement. */
class SandboxRootTest {

    private final SandboxRoot root = new SandboxRoot("/workspace/repo/");

    @Test
    void normalizesRelativePaths() {
        assertThat(root.path()).isEqualTo("/workspace/repo");
        assertThat(root.normalize("")).isEmpty();
        assertThat(root.normalize(".")).isEmpty();
        assertThat(root.normalize("./a//b/./c/")).isEqualTo("a/b/c");
        assertThat(root.normalize("new\nline/☕ x")).isEqualTo("new\nline/☕ x");
        assertThat(root.absolute("a/b")).isEqualTo("/workspace/repo/a/b");
        assertThat(root.absolute("")).isEqualTo("/workspace/repo");
        assertThat(new SandboxRoot("/").absolute("a")).isEqualTo("/a");
    }

    @Test
    void refusesAbsolutePathsAndDotDotNamingThePath() {
        assertThatThrownBy(() -> root.normalize("/etc/passwd"))
                .isInstanceOf(PathOutsideRootException.class)
                .hasMessage("Path '/etc/passwd' is outside the root /workspace/repo: it is absolute; paths must be relative to the root"
                        + " and stay inside it.");
        for (String path : new String[] {"..", "../x", "a/../../x", "a/..", "a/../b"}) {
            assertThatThrownBy(() -> root.normalize(path)).as(path)
                    .isInstanceOfSatisfying(PathOutsideRootException.class, e -> {
                        assertThat(e.path()).isEqualTo(path);
                        assertThat(e.code()).isEqualTo("PATH_OUTSIDE_ROOT");
                        assertThat(e.getMessage()).contains("'..'");
                    });
        }
        assertThatThrownBy(() -> root.normalize("a\0b")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("NUL");
    }

    @Test
    void refusesARelativeOrEmptyRoot() {
        assertThatThrownBy(() -> new SandboxRoot("workspace")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("absolute");
        assertThatThrownBy(() -> new SandboxRoot("")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void relativizesAgainstTheCanonicalRoot() {
        assertThat(SandboxRoot.relativize("/w/r", "/w/r")).isEmpty();
        assertThat(SandboxRoot.relativize("/w/r", "/w/r/a/b")).isEqualTo("a/b");
        assertThat(SandboxRoot.relativize("/", "/a")).isEqualTo("a");
        assertThat(SandboxRoot.relativize("/w/r", "/w/rx")).isEqualTo("/w/rx");
    }
}
