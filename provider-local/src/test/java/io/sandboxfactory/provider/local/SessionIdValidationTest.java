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

/**
 * Session ids that would escape the sessions root, or cannot be a file name, are refused by the
 * framework's one grammar ({@code SessionIds}) before the disk is touched.
 */
class SessionIdValidationTest {

    @TempDir
    Path temp;

    static Stream<Arguments> invalidIds() {
        return Stream.of(
                arguments("..", "'..'", "must not start with '.'"),
                arguments(".", "'.'", "must not start with '.'"),
                arguments("a/b", "'a/b'", "must not contain '/' or '\\'"),
                arguments("../x", "'../x'", "must not contain '/' or '\\'"),
                arguments("/etc", "'/etc'", "must not contain '/' or '\\'"),
                arguments("a\\b", "'a\\b'", "must not contain '/' or '\\'"),
                arguments("x\0y", "'x\\u0000y'", "control or invisible formatting characters"),
                arguments("", "''", "must not be blank"),
                arguments("a".repeat(300), "'" + "a".repeat(80) + "…'", "at most 200 characters"),
                arguments("\n", "'\\u000a'", "must not be blank"),
                arguments("tab\there", "'tab\\u0009here'", "control or invisible formatting characters"),
                arguments("bell\u0007", "'bell\\u0007'", "control or invisible formatting characters"),
                arguments("del\u007f", "'del\\u007f'", "control or invisible formatting characters"),
                arguments(".hidden", "'.hidden'", "must not start with '.'"),
                arguments("-flag", "'-flag'", "must not start with '-'"),
                arguments(" padded", "' padded'", "must not start or end with whitespace"),
                arguments("half\uD800", "'half\uD800'", "unpaired surrogate"),
                arguments("é".repeat(130), "'" + "é".repeat(80) + "…'", "at most 255 bytes long in UTF-8"));
    }

    @ParameterizedTest(name = "[{index}] {1}")
    @MethodSource("invalidIds")
    void refusesTheIdWithASentenceNamingItAndTheRule(String id, String shownAs, String rule) throws Exception {
        TestBed bed = new TestBed(temp);
        Path root = bed.root();

        assertThatThrownBy(() -> bed.factory().create(FactorySandboxContext.of(id)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Session id " + shownAs + " is invalid: ")
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
