package io.sandboxfactory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reviewing what a session did, through the real jar on the local provider with real git: {@code
 * factory diff}. These commands run in their own process (the daemon serves none of them).
 */
class SessionReviewCliIT {

    private static final String COMMIT = "git -c user.name=Agent -c user.email=agent@example.invalid commit -q -am";

    @TempDir
    Path temp;

    Path state;
    Path bare;
    CliProcess cli;

    @BeforeEach
    void setUp() throws Exception {
        state = temp.resolve("state");
        bare = GitRepos.bareWithMain(temp, "app");
        cli = new CliProcess(state).in(temp);
    }

    private void ok(String... args) {
        CliProcess.Result result = cli.run(args);
        assertThat(result.exitCode()).as(String.join(" ", args) + "\n" + result).isZero();
    }

    @Test
    void diffShowsCommittedUncommittedAndUntrackedChangesSinceTheMergeBase() throws Exception {
        ok("open", "d1", "--repo", bare.toString(), "--branch", "work");
        ok("exec", "d1", "--", "sh", "-c", "echo committed >> README.md && " + COMMIT + " 'one' && echo uncommitted > README.md"
                + " && echo new > new.txt");

        CliProcess.Result diff = cli.run("diff", "d1");
        assertThat(diff.exitCode()).as(diff.toString()).isZero();
        assertThat(diff.stdout()).startsWith("diff --git a/README.md b/README.md").contains("-hello from app").contains("+uncommitted")
                .doesNotContain("new.txt");
        assertThat(diff.stderr()).contains("factory: untracked: new.txt");

        CliProcess.Result stat = cli.run("diff", "d1", "--stat");
        assertThat(stat.stdout().lines()).containsExactly("     +1      -1  README.md", "      ?          ?  new.txt");

        JsonNode doc = new ObjectMapper().readTree(cli.run("--json", "diff", "d1").stdout());
        JsonNode repository = doc.path("repositories").get(0);
        assertThat(repository.path("base").asText()).isEqualTo("main");
        assertThat(repository.path("mergeBase").asText()).isEqualTo(GitRepos.git(bare, "rev-parse", "main").strip());
        assertThat(repository.path("untracked").toString()).isEqualTo("[\"new.txt\"]");
        assertThat(repository.path("files").get(0).path("path").asText()).isEqualTo("README.md");
        assertThat(doc.path("patch").asText()).isEqualTo(diff.stdout());

        // Everything committed and clean again: the commits since the merge base are still the session's change.
        ok("exec", "d1", "--", "sh", "-c", "rm new.txt && " + COMMIT + " 'two'");
        assertThat(cli.run("diff", "d1").stdout()).contains("+uncommitted");
        assertThat(cli.run("diff", "d1", "--stat").stdout()).doesNotContain("new.txt");
    }

    @Test
    void anEnvironmentsDiffIsOnePatchFromTheWorkspaceRoot() throws Exception {
        Path other = GitRepos.bareWithMain(temp, "lib");
        ok("open", "d2", "--repo", bare.toString(), "--dir", "web", "--repo", other.toString(), "--dir", "lib", "--branch", "work");
        ok("exec", "d2", "--workdir", ".", "--", "sh", "-c", "echo a >> web/README.md && echo b >> lib/README.md && touch lib/extra");

        CliProcess.Result diff = cli.run("diff", "d2");
        assertThat(diff.stdout()).contains("diff --git a/web/README.md b/web/README.md").contains("diff --git a/lib/README.md b/lib/README.md");
        assertThat(diff.stderr()).contains("factory: untracked: lib/extra");
        assertThat(cli.run("diff", "d2", "--stat").stdout().lines()).contains("     +1      -0  web/README.md", "     +1      -0  lib/README.md");
    }

    @Test
    void anUnknownSessionIsBadInput() {
        CliProcess.Result diff = cli.run("diff", "nobody");
        assertThat(diff.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(diff.stderr()).contains("Session 'nobody' is not known");
    }
}
