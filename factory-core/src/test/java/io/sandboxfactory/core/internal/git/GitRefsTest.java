package io.sandboxfactory.core.internal.git;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GitRefsTest {

    @ParameterizedTest
    @ValueSource(strings = {"main", "feature/x", "a-b_c.d", "release/1.2.3", "x", "9", "a/b/c", "user/JIRA-12_fix"})
    void acceptsOrdinaryBranchNames(String name) {
        assertThat(GitRefs.isValidGitRef(name)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"-x", "a..b", "a/.b", "x.lock", "a//b", "/a", "a/", "a b", " a", "a.", ".a", "a/b.lock/c",
            "a.LOCK", "x/Y.Lock", "b.lOcK/c", "a~b", "a^b", "a:b", "a?b", "a*b", "a[b", "a\\b", "a@{b", "HEAD", "ä", "a\tb", ""})
    void rejectsUnsafeNames(String name) {
        assertThat(GitRefs.isValidGitRef(name)).isFalse();
        assertThatThrownBy(() -> GitRefs.requireValid(name, "Branch"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Branch '")
                .hasMessageContaining("is not a valid git branch name: ");
    }

    @Test
    void rejectsNullAndTooLongNames() {
        assertThat(GitRefs.isValidGitRef(null)).isFalse();
        assertThat(GitRefs.isValidGitRef("a".repeat(255))).isTrue();
        assertThat(GitRefs.isValidGitRef("a".repeat(256))).isFalse();
        assertThatThrownBy(() -> GitRefs.requireValid("a".repeat(256), "Branch"))
                .hasMessageContaining("at most 255 characters");
    }

    @Test
    void messageNamesTheValueAndTheRule() {
        assertThatThrownBy(() -> GitRefs.requireValid("a..b", "Base branch"))
                .hasMessage("Base branch 'a..b' is not a valid git branch name: it must not contain '..'.");
    }

    /** Everything GitRefs accepts, real git accepts too; sampled from names built of risky pieces. */
    @Test
    void everyAcceptedNameIsAcceptedByGitCheckRefFormat() throws Exception {
        List<String> pieces = List.of("a", "Z", "0", "_", "-", ".", "/", "..", "lock", ".lock", "HEAD", "x-y", "@", "//");
        Random random = new Random(42);
        List<String> accepted = new ArrayList<>();
        List<String> rejected = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            StringBuilder name = new StringBuilder();
            int n = 1 + random.nextInt(5);
            for (int j = 0; j < n; j++) {
                name.append(pieces.get(random.nextInt(pieces.size())));
            }
            (GitRefs.isValidGitRef(name.toString()) ? accepted : rejected).add(name.toString());
        }
        accepted.addAll(List.of("main", "feature/x", "a".repeat(255), "a/HEAD", "v1.2.3"));
        assertThat(accepted).hasSizeGreaterThan(50);
        assertThat(rejected).hasSizeGreaterThan(50);
        for (String name : accepted) {
            assertThat(gitAccepts(name)).as("git check-ref-format --branch '%s'", name).isTrue();
        }
        // The rules reject exactly what git rejects for these (and more): they must not be looser.
        for (String name : List.of("-x", "a..b", "a/.b", "x.lock", "a//b", "/a", "a/", "a b", "HEAD")) {
            assertThat(gitAccepts(name)).as("git rejects '%s'", name).isFalse();
        }
    }

    private static boolean gitAccepts(String name) throws IOException, InterruptedException {
        Process p = new ProcessBuilder("git", "check-ref-format", "--branch", name).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("git check-ref-format hung");
        }
        return p.exitValue() == 0;
    }
}
