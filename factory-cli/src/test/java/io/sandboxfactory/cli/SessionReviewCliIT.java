package io.sandboxfactory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reviewing what a session did, through the real jar on the local provider with real git: {@code
 * factory diff}, {@code factory export}, {@code factory log}; with the factory daemon off and on.
 */
@ParameterizedClass(name = "daemon {0}")
@EnumSource(DaemonMode.class)
class SessionReviewCliIT {

    @Parameter
    DaemonMode mode;

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
        cli = mode.cli(state).in(temp);
    }

    @AfterEach
    void stopDaemons() throws Exception {
        new Daemons(state).stop();
    }

    /** Where a command of the CLI was journaled as coming from: a daemon, when one ran it, may be up. */
    private String cliOrigin() {
        return mode == DaemonMode.OFF ? "cli" : "(cli|daemon)";
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
    void exportBringsTheSessionBranchIntoALocalRepositoryWithoutTouchingItsWorkingTree() throws Exception {
        Path local = temp.resolve("local");
        GitRepos.git(temp, "clone", "-q", bare.toString(), local.toString());
        ok("open", "e1", "--repo", bare.toString(), "--branch", "work");
        ok("exec", "e1", "--", "sh", "-c", "echo one >> README.md && " + COMMIT + " 'one' && echo dirty >> README.md");
        String sessionHead = cli.run("exec", "e1", "--", "git", "rev-parse", "HEAD").stdout().strip();

        CliProcess.Result export = cli.run("export", "e1", "--into", local.toString());
        assertThat(export.exitCode()).as(export.toString()).isZero();
        assertThat(export.stdout()).isEqualTo("factory/e1/work " + sessionHead + "\n");
        assertThat(export.stderr()).contains("uncommitted changes");
        assertThat(GitRepos.git(local, "rev-parse", "factory/e1/work").strip()).isEqualTo(sessionHead);
        assertThat(GitRepos.git(local, "symbolic-ref", "--short", "HEAD").strip()).isEqualTo("main");
        assertThat(GitRepos.git(local, "status", "--porcelain")).isEmpty();
        assertThat(cli.run("exec", "e1", "--", "ls", ".git").stdout()).doesNotContain("factory-export");

        // A later commit fast-forwards the exported branch; the current directory is the default target.
        ok("exec", "e1", "--", "sh", "-c", COMMIT + " 'two'");
        CliProcess.Result again = cli.in(local).run("export", "e1");
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(GitRepos.git(local, "rev-parse", "factory/e1/work").strip()).isNotEqualTo(sessionHead);

        // History rewritten in the session: the exported branch is kept unless --force.
        ok("exec", "e1", "--", "sh", "-c", "git reset -q --hard HEAD~2 && echo other > other.txt && git add other.txt && " + COMMIT + " 'other'");
        String before = GitRepos.git(local, "rev-parse", "factory/e1/work").strip();
        CliProcess.Result refused = cli.run("export", "e1");
        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(refused.stderr()).contains("refs/heads/factory/e1/work is at " + before.substring(0, 12)).contains("--force");
        assertThat(GitRepos.git(local, "rev-parse", "factory/e1/work").strip()).isEqualTo(before);
        CliProcess.Result forced = cli.run("export", "e1", "--force");
        assertThat(forced.exitCode()).as(forced.toString()).isZero();
        assertThat(GitRepos.git(local, "show", "factory/e1/work:other.txt")).isEqualTo("other\n");
    }

    @Test
    void exportRefusesATargetThatIsNoRepositoryAndASessionIdThatNamesNoRef() throws Exception {
        Path plain = temp.resolve("plain");
        java.nio.file.Files.createDirectories(plain);
        ok("open", "e2", "--repo", bare.toString(), "--branch", "work");
        CliProcess.Result noRepo = cli.run("export", "e2", "--into", plain.toString());
        assertThat(noRepo.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(noRepo.stderr()).contains(plain + " is not in a git repository");

        Path local = temp.resolve("local2");
        GitRepos.git(temp, "clone", "-q", bare.toString(), local.toString());
        ok("open", "odd id", "--repo", bare.toString(), "--branch", "work");
        CliProcess.Result odd = cli.run("export", "odd id", "--into", local.toString());
        assertThat(odd.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(odd.stderr()).contains("'refs/heads/factory/odd id/work' is no valid git ref name");
        assertThat(GitRepos.git(local, "for-each-ref", "refs/heads/factory")).isEmpty();
    }

    @Test
    void exportRefusesARepositoryThatSharesNoHistoryWithTheSessionUnlessForced() throws Exception {
        Path unrelated = temp.resolve("unrelated");
        GitRepos.git(temp, "init", "-q", "-b", "main", unrelated.toString());
        GitRepos.git(unrelated, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-q", "--allow-empty", "-m", "another project");
        String objectsBefore = GitRepos.git(unrelated, "count-objects", "-v");
        String refsBefore = GitRepos.git(unrelated, "for-each-ref");
        ok("open", "e3", "--repo", bare.toString(), "--branch", "work");

        CliProcess.Result refused = cli.run("export", "e3", "--into", unrelated.toString());

        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(refused.stderr()).contains("factory: The repository at " + unrelated + " shares no history with session 'e3'"
                + " (none of its refs reaches the session's base commit or a root commit of branch 'work'); export into a clone of the"
                + " session's repository, or pass --force to import the unrelated history anyway.");
        assertThat(GitRepos.git(unrelated, "for-each-ref")).as("no ref written").isEqualTo(refsBefore);
        assertThat(GitRepos.git(unrelated, "count-objects", "-v")).as("no object fetched").isEqualTo(objectsBefore);

        CliProcess.Result forced = cli.run("export", "e3", "--into", unrelated.toString(), "--force");
        assertThat(forced.exitCode()).as(forced.toString()).isZero();
        assertThat(GitRepos.git(unrelated, "rev-parse", "factory/e3/work").strip())
                .isEqualTo(cli.run("exec", "e3", "--", "git", "rev-parse", "HEAD").stdout().strip());
    }

    @Test
    void exportRefusesARepositoryThatHoldsTheSessionsCommitsButReachesNoneOfThem() throws Exception {
        Path once = temp.resolve("once");
        GitRepos.git(temp, "init", "-q", "-b", "main", once.toString());
        GitRepos.git(once, "-c", "user.name=u", "-c", "user.email=u@x", "commit", "-q", "--allow-empty", "-m", "another project");
        // The session's history was fetched here once and its ref deleted: the objects stay, no ref reaches them.
        GitRepos.git(once, "fetch", "-q", bare.toString(), "main:refs/heads/gone");
        GitRepos.git(once, "update-ref", "-d", "refs/heads/gone");
        String refsBefore = GitRepos.git(once, "for-each-ref");
        ok("open", "e4", "--repo", bare.toString(), "--branch", "work");

        CliProcess.Result refused = cli.run("export", "e4", "--into", once.toString());

        assertThat(refused.exitCode()).as(refused.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(refused.stderr()).contains("shares no history with session 'e4'");
        assertThat(GitRepos.git(once, "for-each-ref")).isEqualTo(refsBefore);
    }

    @Test
    void exportAcceptsAShallowCloneOfTheSessionsRepositoryThatLacksItsRootCommit() throws Exception {
        Path work = temp.resolve("second-work");
        GitRepos.git(temp, "clone", "-q", bare.toString(), work.toString());
        GitRepos.git(work, "-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", "second");
        GitRepos.git(work, "push", "-q", "origin", "main");
        Path shallow = temp.resolve("shallow");
        GitRepos.git(temp, "clone", "-q", "--depth", "1", "file://" + bare, shallow.toString());
        ok("open", "e5", "--repo", bare.toString(), "--branch", "work");
        ok("exec", "e5", "--", "sh", "-c", "echo mine >> README.md && " + COMMIT + " 'mine'");

        CliProcess.Result exported = cli.run("export", "e5", "--into", shallow.toString());

        assertThat(exported.exitCode()).as(exported.toString()).isZero();
        assertThat(GitRepos.git(shallow, "log", "-1", "--format=%s", "factory/e5/work").strip()).isEqualTo("mine");
    }

    @Test
    void logListsTheCommandsOfTheSessionWithTheirOriginOldestFirst() throws Exception {
        ok("open", "l1", "--repo", bare.toString(), "--branch", "work", "--setup", "echo prepared");
        ok("exec", "l1", "--", "sh", "-c", "echo out; echo err >&2");
        ok("exec", "l1", "--", "true");
        assertThat(cli.run("exec", "l1", "--", "sh", "-c", "exit 4").exitCode()).isEqualTo(4);

        CliProcess.Result log = cli.run("log", "l1");
        assertThat(log.exitCode()).as(log.toString()).isZero();
        List<String> lines = log.stdout().lines().toList();
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).contains("setup").contains("exit 0").endsWith("echo prepared");
        assertThat(lines.get(1)).containsPattern("\\s" + cliOrigin() + "\\s").endsWith("sh -c 'echo out; echo err >&2'");
        assertThat(lines.get(3)).contains("exit 4").endsWith("sh -c 'exit 4'");

        assertThat(cli.run("log", "l1", "-n", "2").stdout().lines()).hasSize(2).last().asString().endsWith("sh -c 'exit 4'");
        JsonNode doc = new ObjectMapper().readTree(cli.run("--json", "log", "l1").stdout());
        JsonNode echo = doc.path("entries").get(1);
        assertThat(echo.path("stdoutTail").asText()).isEqualTo("out\n");
        assertThat(echo.path("stderrTail").asText()).isEqualTo("err\n");
        assertThat(echo.path("origin").asText()).matches(cliOrigin());
        assertThat(cli.run("log", "l1", "-n", "0").exitCode()).isEqualTo(ExitCodes.BAD_INPUT);

        ok("retire", "l1", "--delete");
        assertThat(cli.run("log", "l1").exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    }

    @Test
    void aCommandTheDaemonRanIsJournaledAsTheDaemons() throws Exception {
        CliProcess withDaemon = new CliProcess(state).in(temp).withDaemon();
        try {
            assertThat(withDaemon.run("open", "l2", "--repo", bare.toString(), "--branch", "work").exitCode()).isZero();
            Daemons daemons = new Daemons(state);
            assertThat(Daemons.awaitCondition(() -> daemons.sockets().stream().anyMatch(Daemons::listening))).as("a daemon listens").isTrue();
            assertThat(withDaemon.run("exec", "l2", "--", "true").exitCode()).isZero();
        } finally {
            new Daemons(state).stop();
        }
        assertThat(cli.run("log", "l2").stdout().lines()).last().asString().contains("daemon").endsWith("true");
    }

    @Test
    void anUnknownSessionIsBadInput() {
        CliProcess.Result diff = cli.run("diff", "nobody");
        assertThat(diff.exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(diff.stderr()).contains("Session 'nobody' is not known");
    }
}
