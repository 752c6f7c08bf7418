package io.sandboxfactory.core.session;

import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.config.GitConfig;
import io.sandboxfactory.core.testing.Git;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A commit in a local session isolated by bubblewrap (its own empty HOME) carries the configured
 * {@code git.user.name} and {@code git.user.email}, with the real git, through the checkout's own
 * config; a later start under another identity gives the kept checkout the new one.
 */
class LocalGitIdentityTest {

    /** Commits in the checkout and prints the author and committer of that commit, and whether HOME holds a git config. */
    static final String COMMIT_AND_SHOW = "git commit -q --allow-empty -m work && git log -1 --format='%an <%ae>|%cn <%ce>'"
            + " && { test -e \"$HOME/.gitconfig\" && echo home-gitconfig || echo no-home-gitconfig; }";

    @TempDir
    Path tmp;
    Path remote;
    Path state;

    @BeforeEach
    void fixtures() throws IOException {
        remote = Git.bareRepository(tmp.resolve("remote/site.git"));
        state = tmp.resolve("state");
    }

    private SandboxFactory factory(GitConfig git) {
        FactoryConfig config = FactoryConfig.builder().provider("local").providerSection("local", Map.of("isolation", "namespaces"))
                .git(git).build();
        return SandboxFactory.builder().config(config).environment(Map.of()).stateDirectory(state).build();
    }

    private static List<String> commit(SessionHandle session) {
        CommandResult result = session.executeCommand(COMMIT_AND_SHOW, List.of(), io.sandboxfactory.api.CommandOptions.builder().cwd("site").build());
        assertThat(result.exitCode()).as(result.stderr()).isZero();
        return result.stdout().lines().toList();
    }

    @Test
    void aCommitInAnIsolatedSessionCarriesTheConfiguredIdentityAndAReopenTheNewOne() {
        SessionSpec spec = SessionSpec.builder("g1").repository(remote.toString()).branch("work").build();
        try (SandboxFactory factory = factory(GitConfig.of("Night Agent", "agent@example.org"))) {
            assertThat(commit(factory.openSession(spec)))
                    .containsExactly("Night Agent <agent@example.org>|Night Agent <agent@example.org>", "no-home-gitconfig");
        }
        try (SandboxFactory factory = factory(GitConfig.of("Day Agent", "day@example.org"))) {
            assertThat(commit(factory.openSession(spec))).first().isEqualTo("Day Agent <day@example.org>|Day Agent <day@example.org>");
        }
    }
}
