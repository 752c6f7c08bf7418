package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.FactorySandboxContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** Session ids that would escape the sessions root, or cannot be a file name, are refused before the disk is touched. */
class SessionIdValidationTest {

    @TempDir
    Path temp;

    static Stream<Arguments> invalidIds() {
        return Stream.of(
                arguments("..", "'..'", "'.' and '..' are not session ids"),
                arguments(".", "'.'", "'.' and '..' are not session ids"),
                arguments("a/b", "'a/b'", "path separator"),
                arguments("../x", "'../x'", "path separator"),
                arguments("/etc", "'/etc'", "path separator"),
                arguments("a\\b", "'a\\b'", "path separator"),
                arguments("x\0y", "'x\\u0000y'", "NUL"),
                arguments("", "''", "must not be empty"),
                arguments("a".repeat(300), "'" + "a".repeat(80) + "…'", "at most 200 characters"),
                arguments("\n", "'\\u000a'", "control characters"),
                arguments("tab\there", "'tab\\u0009here'", "control characters"),
                arguments("bell\u0007", "'bell\\u0007'", "control characters"),
                arguments("del\u007f", "'del\\u007f'", "control characters"),
                arguments(".hidden", "'.hidden'", "must not start with '.'"),
                arguments("half\uD800", "'half\uD800'", "unpaired surrogate"),
                arguments("é".repeat(130), "'" + "é".repeat(80) + "…'", "at most 255 bytes in UTF-8"));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource("invalidIds")
    void refusesTheIdWithASentenceNamingItAndTheRule(String id, String shownAs, String rule) throws Exception {
        TestBed bed = new TestBed(temp);
        Path root = bed.root();

        assertThatThrownBy(() -> bed.factory().create(FactorySandboxContext.of(id)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Session id " + shownAs + " is invalid for the local provider")
                .hasMessageContaining(rule);
        assertThat(root).doesNotExist();
        try (Stream<Path> entries = Files.list(temp)) {
            assertThat(entries).as("nothing created next to the root either").isEmpty();
        }
    }

    @Test
    void refusesBeforeTouchingAnExistingRoot() throws Exception {
        TestBed bed = new TestBed(temp);
        Files.createDirectories(bed.root().resolve("existing"));

        assertThatThrownBy(() -> bed.factory().create(FactorySandboxContext.of("../escape")))
                .isInstanceOf(IllegalArgumentException.class);

        try (Stream<Path> entries = Files.list(bed.root())) {
            assertThat(entries).containsExactly(bed.root().resolve("existing"));
        }
        assertThat(temp.resolve("escape")).doesNotExist();
    }

    @Test
    void acceptsOrdinaryIdsIncludingSpacesDotsAndUnicode() {
        TestBed bed = new TestBed(temp);
        for (String id : new String[] {"abc", "feature-1.2_x", "with space", "über", "a..b", "x".repeat(200), "é".repeat(127)}) {
            LocalSandbox sandbox = (LocalSandbox) bed.factory().create(FactorySandboxContext.of(id));
            assertThat(sandbox.directory()).isEqualTo(bed.root().resolve(id));
            assertThat(sandbox.directory().getParent()).isEqualTo(bed.root());
        }
        assertThat(bed.root()).doesNotExist();
    }
}
