package io.sandboxfactory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sandboxfactory.core.store.SqliteSessionStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The {@code factory} command as users run it: the real jar, real git, real bare repositories, the
 * local provider; every case with the factory daemon off and on, with the same assertions.
 */
@ParameterizedClass(name = "daemon {0}")
@EnumSource(DaemonMode.class)
class FactoryCliIT {

    @Parameter
    DaemonMode mode;

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

    @Test
    void runPassesTheCommandsExitCodeAndOutputThroughAndDestroysTheSession() {
        CliProcess.Result result = cli.run("run", "--session", "r1", "--repo", bare.toString(), "--branch", "feature/x",
                "--", "sh", "-c", "cat README.md; git rev-parse --abbrev-ref HEAD; echo oops >&2; exit 7");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(7);
        assertThat(result.stdout()).isEqualTo("hello from app\nfeature/x\n");
        assertThat(result.stderr()).contains("oops").contains("cloning");
        assertThat(state.resolve("sessions/r1")).doesNotExist();
    }

    @Test
    void aCommandThatTimesOutSaysSoInOneLineOnStderrAndExits124() {
        assertThat(cli.run("open", "slow", "--repo", bare.toString(), "--branch", "b").exitCode()).isZero();

        CliProcess.Result exec = cli.run("exec", "slow", "--timeout", "2s", "--", "sleep", "30");
        assertThat(exec.exitCode()).as(exec.toString()).isEqualTo(124);
        assertThat(exec.stderr().lines()).as(exec.toString()).contains("factory: command timed out after 2s and was killed; exit 124");

        CliProcess.Result run = cli.run("run", "--session", "slow-run", "--repo", bare.toString(), "--branch", "c", "--timeout", "2s",
                "--", "sleep", "30");
        assertThat(run.exitCode()).as(run.toString()).isEqualTo(124);
        assertThat(run.stderr().lines()).as(run.toString()).contains("factory: command timed out after 2s and was killed; exit 124");

        CliProcess.Result quick = cli.run("exec", "slow", "--timeout", "2s", "--", "sh", "-c", "exit 124");
        assertThat(quick.exitCode()).isEqualTo(124);
        assertThat(quick.stderr()).as("a command's own exit 124 is no timeout").doesNotContain("timed out");
    }

    @Test
    void aRunAskedToEndKillsItsCommandAndDestroysItsSession() throws Exception {
        String seconds = TestProcesses.uniqueSleepSeconds(temp.toString());
        Process client = cli.start("run", "--session", "r-ended", "--repo", bare.toString(), "--branch", "k", "--", "sh", "-c",
                "exec sleep " + seconds);
        long sleeper = TestProcesses.awaitProcess(List.of(seconds));
        assertThat(state.resolve("sessions/r-ended")).isDirectory();

        TestProcesses.endLikeCtrlC(client);

        assertThat(Daemons.awaitCondition(() -> TestProcesses.ended(sleeper))).as("the command was killed").isTrue();
        assertThat(Daemons.awaitCondition(() -> !Files.exists(state.resolve("sessions/r-ended")))).as("the session destroyed").isTrue();
        CliProcess.Result status = cli.run("status", "r-ended");
        assertThat(status.exitCode()).as(status.toString()).isEqualTo(ExitCodes.BAD_INPUT);
    }

    @Test
    void anExecAskedToEndKillsItsCommandAndKeepsItsSession() throws Exception {
        assertThat(cli.run("open", "kept", "--repo", bare.toString(), "--branch", "b").exitCode()).isZero();
        String seconds = TestProcesses.uniqueSleepSeconds(temp.toString());
        Process client = cli.start("exec", "kept", "--", "sh", "-c", "exec sleep " + seconds);
        long sleeper = TestProcesses.awaitProcess(List.of(seconds));

        TestProcesses.endLikeCtrlC(client);

        assertThat(Daemons.awaitCondition(() -> TestProcesses.ended(sleeper))).as("the command was killed").isTrue();
        CliProcess.Result after = cli.run("exec", "kept", "--", "git", "rev-parse", "--abbrev-ref", "HEAD");
        assertThat(after.stdout()).as(after.toString()).isEqualTo("b\n");
    }

    @Test
    void openThenExecInSeparateProcessesWorkThroughTheSessionStore() {
        CliProcess.Result open = cli.run("open", "s1", "--repo", bare.toString(), "--branch", "work-1",
                "--setup", "echo setup-ran >> ../setup.log");
        assertThat(open.exitCode()).as(open.toString()).isZero();

        CliProcess.Result exec = cli.run("exec", "s1", "--", "git", "rev-parse", "--abbrev-ref", "HEAD");
        assertThat(exec.exitCode()).as(exec.toString()).isZero();
        assertThat(exec.stdout()).isEqualTo("work-1\n");

        CliProcess.Result failing = cli.run("exec", "s1", "--", "sh", "-c", "exit 3");
        assertThat(failing.exitCode()).isEqualTo(3);

        CliProcess.Result status = cli.run("--json", "status", "s1");
        assertThat(status.exitCode()).as(status.toString()).isZero();
        assertThat(status.stdout()).contains("\"branch\" : \"work-1\"");
    }

    @Test
    void execRevivesASessionWhoseDirectoryWasDeletedFromOutside() throws Exception {
        assertThat(cli.run("open", "phoenix", "--repo", bare.toString(), "--branch", "b").exitCode()).isZero();
        GitRepos.deleteRecursively(state.resolve("sessions/phoenix"));

        CliProcess.Result exec = cli.run("exec", "phoenix", "--", "cat", "README.md");

        assertThat(exec.exitCode()).as(exec.toString()).isZero();
        assertThat(exec.stdout()).isEqualTo("hello from app\n");
    }

    @Test
    void cpCatAndLsMoveFilesThroughTheJarAndRefuseAPathOutsideTheCheckout() throws Exception {
        assertThat(cli.run("open", "files", "--repo", bare.toString(), "--branch", "b").exitCode()).isZero();
        Path tree = Files.createDirectories(temp.resolve("tree/sub dir"));
        Files.writeString(tree.resolve("a.txt"), "alpha\n");

        CliProcess.Result in = cli.run("cp", temp.resolve("tree").toString(), "files:copied");
        CliProcess.Result cat = cli.run("cat", "files:copied/sub dir/a.txt");
        CliProcess.Result ls = cli.run("ls", "files:copied");
        CliProcess.Result out = cli.run("cp", "files:README.md", temp.resolve("out.md").toString());
        CliProcess.Result outside = cli.run("cp", temp.resolve("tree").toString(), "files:../escape");

        assertThat(in.exitCode()).as(in.toString()).isZero();
        assertThat(state.resolve("sessions/files/app/copied/sub dir/a.txt")).hasContent("alpha");
        assertThat(cat.stdout()).isEqualTo("alpha\n");
        assertThat(ls.stdout()).contains("sub dir");
        assertThat(out.exitCode()).as(out.toString()).isZero();
        assertThat(temp.resolve("out.md")).hasContent("hello from app");
        assertThat(outside.exitCode()).as(outside.toString()).isEqualTo(2);
        assertThat(state.resolve("sessions/files/escape")).doesNotExist();
    }

    @Test
    void setupRunsOnceAcrossProcesses() throws Exception {
        assertThat(cli.run("open", "once", "--repo", bare.toString(), "--branch", "b", "--setup", "echo ran >> ../setup.log").exitCode()).isZero();
        assertThat(cli.run("exec", "once", "--", "true").exitCode()).isZero();
        assertThat(cli.run("open", "once", "--repo", bare.toString(), "--branch", "b", "--setup", "echo ran >> ../setup.log").exitCode()).isZero();

        assertThat(Files.readAllLines(state.resolve("sessions/once/setup.log"))).containsExactly("ran");
    }

    /** With the daemon on, a command served by it leaves the session's sandbox running there, as a user's exec does. */
    private void holdRunning(String session) {
        CliProcess.Result exec = cli.run("exec", session, "--", "true");
        assertThat(exec.exitCode()).as(exec.toString()).isZero();
    }

    @Test
    void reopeningWithAnotherSetupCommandRunsItOnceAsAFreshProcessWould() throws Exception {
        String[] openX = {"open", "s1", "--repo", bare.toString(), "--branch", "b", "--setup", "echo x >> ../setup.log"};
        String[] openY = {"open", "s1", "--repo", bare.toString(), "--branch", "b", "--setup", "echo y >> ../setup.log"};
        assertThat(cli.run(openX).exitCode()).isZero();
        assertThat(cli.run("retire", "s1").exitCode()).isZero();
        assertThat(cli.run(openX).exitCode()).isZero();

        CliProcess.Result changed = cli.run(openY);
        CliProcess.Result again = cli.run(openY);

        assertThat(changed.exitCode()).as(changed.toString()).isZero();
        assertThat(changed.stderr()).contains("running setup");
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(again.stderr()).doesNotContain("running setup");
        assertThat(Files.readAllLines(state.resolve("sessions/s1/setup.log"))).containsExactly("x", "y");
    }

    @Test
    void reopeningWithAnotherTeardownCommandRetiresWithIt() throws Exception {
        assertThat(cli.run("open", "td2", "--repo", bare.toString(), "--branch", "b", "--teardown", "echo old > ../teardown.log").exitCode()).isZero();
        holdRunning("td2");
        assertThat(cli.run("open", "td2", "--repo", bare.toString(), "--branch", "b", "--teardown", "echo new > ../teardown.log").exitCode()).isZero();

        CliProcess.Result retire = cli.run("retire", "td2");

        assertThat(retire.exitCode()).as(retire.toString()).isZero();
        assertThat(state.resolve("sessions/td2/teardown.log")).hasContent("new");
    }

    @Test
    void reopeningOnAnotherBranchChecksItOutAndTheStoreFollows() {
        assertThat(cli.run("open", "br", "--repo", bare.toString(), "--branch", "first").exitCode()).isZero();
        holdRunning("br");

        CliProcess.Result reopen = cli.run("open", "br", "--repo", bare.toString(), "--branch", "second");

        assertThat(reopen.exitCode()).as(reopen.toString()).isZero();
        assertThat(cli.run("exec", "br", "--", "git", "rev-parse", "--abbrev-ref", "HEAD").stdout()).isEqualTo("second\n");
        assertThat(cli.run("--json", "status", "br").stdout()).contains("\"branch\" : \"second\"");
    }

    @Test
    void reopeningOnAnotherRepositoryIsBadInputAndChangesNothing() throws Exception {
        Path other = GitRepos.bareWithMain(temp, "other");
        assertThat(cli.run("open", "mine", "--repo", bare.toString(), "--branch", "b").exitCode()).isZero();
        holdRunning("mine");

        CliProcess.Result reopen = cli.run("open", "mine", "--repo", other.toString(), "--branch", "b");

        assertThat(reopen.exitCode()).as(reopen.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(reopen.stderr()).contains("works on repository '" + bare + "'");
        assertThat(state.resolve("sessions/mine/other")).doesNotExist();
        assertThat(cli.run("exec", "mine", "--", "cat", "README.md").stdout()).isEqualTo("hello from app\n");
    }

    @Test
    void progressSaysWhetherTheSandboxWasCreatedOrReconnected() {
        CliProcess.Result first = cli.run("open", "pr", "--repo", bare.toString(), "--branch", "b");
        holdRunning("pr");
        CliProcess.Result whileRunning = cli.run("open", "pr", "--repo", bare.toString(), "--branch", "b");
        assertThat(cli.run("retire", "pr").exitCode()).isZero();
        CliProcess.Result afterStop = cli.run("open", "pr", "--repo", bare.toString(), "--branch", "b");

        assertThat(first.stderr()).as(first.toString()).contains("created sandbox").doesNotContain("reconnected");
        assertThat(whileRunning.stderr()).as(whileRunning.toString()).contains("reconnected to sandbox").doesNotContain("created sandbox");
        assertThat(afterStop.stderr()).as(afterStop.toString()).contains("reconnected to sandbox").doesNotContain("created sandbox");
    }

    @Test
    void withoutABaseTheSessionBranchStartsFromTheRemotesDefaultBranch() throws Exception {
        Path trunk = GitRepos.bareWithTrunk(temp, "trunky");

        CliProcess.Result open = cli.run("open", "tr", "--repo", trunk.toString(), "--branch", "feature");
        CliProcess.Result exec = cli.run("exec", "tr", "--", "sh", "-c", "cat TRUNK.md; git rev-parse --abbrev-ref HEAD");
        CliProcess.Result status = cli.run("--json", "status", "tr");

        assertThat(open.exitCode()).as(open.toString()).isZero();
        assertThat(exec.stdout()).as(exec.toString()).isEqualTo("on trunk\nfeature\n");
        assertThat(new ObjectMapper().readTree(status.stdout()).get("baseBranch").asText()).isEqualTo("trunk");
    }

    /** Makes the session look unused for {@code ago}, as if no one had opened or used it since. */
    private void unusedFor(String session, Duration ago) {
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state)) {
            store.recordUse(session, Instant.now().minus(ago), Optional.empty());
        }
    }

    @Test
    void retireByLabelRetiresEveryMatchingSessionAndSaysWhichWithDryRunFirst() throws Exception {
        for (String id : List.of("l-a", "l-b")) {
            assertThat(cli.run("open", id, "--repo", bare.toString(), "--branch", "b", "--label", "item=7").exitCode()).isZero();
        }
        assertThat(cli.run("open", "l-c", "--repo", bare.toString(), "--branch", "b", "--label", "item=8").exitCode()).isZero();

        CliProcess.Result dry = cli.run("retire", "--label", "item=7", "--dry-run");
        assertThat(dry.exitCode()).as(dry.toString()).isZero();
        assertThat(dry.stdout()).isEqualTo("would retire l-a\nwould retire l-b\n");
        assertThat(state.resolve("sessions/l-a/app")).isDirectory();

        CliProcess.Result retire = cli.run("--json", "retire", "--label", "item=7", "--delete");

        assertThat(retire.exitCode()).as(retire.toString()).isZero();
        JsonNode results = new ObjectMapper().readTree(retire.stdout());
        assertThat(results).hasSize(2);
        assertThat(results.get(0).get("session").asText()).isEqualTo("l-a");
        assertThat(results.get(1).get("outcome").asText()).isEqualTo("retired");
        assertThat(state.resolve("sessions/l-a")).doesNotExist();
        assertThat(state.resolve("sessions/l-b")).doesNotExist();
        assertThat(state.resolve("sessions/l-c/app")).isDirectory();
        assertThat(cli.run("--json", "status", "l-c").stdout()).contains("\"item\" : \"8\"");
    }

    @Test
    void retiringAnUnknownSessionIsANoOpThatSaysSo() {
        CliProcess.Result unknown = cli.run("retire", "nobody");
        CliProcess.Result neither = cli.run("retire");
        CliProcess.Result both = cli.run("retire", "x", "--label", "a=b");

        assertThat(unknown.exitCode()).as(unknown.toString()).isZero();
        assertThat(unknown.stderr()).contains("no session 'nobody'");
        assertThat(neither.exitCode()).as(neither.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(both.exitCode()).as(both.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(both.stderr()).contains("not several");
    }

    @Test
    void retireTakesSeveralIdsOrAllAndRefusesUnknownIdsRetiringNothing() throws Exception {
        for (String id : List.of("m-a", "m-b", "m-c")) {
            assertThat(cli.run("open", id, "--repo", bare.toString(), "--branch", "b").exitCode()).isZero();
        }

        CliProcess.Result typo = cli.run("retire", "m-a", "m-x", "m-b", "m-y", "--delete");
        assertThat(typo.exitCode()).as(typo.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(typo.stderr()).contains("No session 'm-x', 'm-y' in " + state).contains("nothing was retired");
        assertThat(state.resolve("sessions/m-a/app")).as("nothing retired").isDirectory();
        CliProcess.Result mixed = cli.run("retire", "m-a", "--all");
        assertThat(mixed.exitCode()).as(mixed.toString()).isEqualTo(ExitCodes.BAD_INPUT);

        CliProcess.Result dry = cli.run("retire", "m-a", "m-b", "--delete", "--dry-run");
        assertThat(dry.exitCode()).as(dry.toString()).isZero();
        assertThat(dry.stdout()).isEqualTo("would retire m-a\nwould retire m-b\n");
        assertThat(state.resolve("sessions/m-a/app")).isDirectory();

        CliProcess.Result two = cli.run("retire", "m-a", "m-b", "--delete");
        assertThat(two.exitCode()).as(two.toString()).isZero();
        assertThat(two.stdout()).isEqualTo("retired m-a\nretired m-b\n");
        assertThat(state.resolve("sessions/m-a")).doesNotExist();
        assertThat(state.resolve("sessions/m-b")).doesNotExist();

        CliProcess.Result allDry = cli.run("--json", "retire", "--all", "--dry-run");
        assertThat(new ObjectMapper().readTree(allDry.stdout()).findValuesAsText("outcome")).containsExactly("would_retire");
        assertThat(state.resolve("sessions/m-c/app")).isDirectory();
        CliProcess.Result all = cli.run("retire", "--all", "--delete");
        assertThat(all.exitCode()).as(all.toString()).isZero();
        assertThat(all.stdout()).isEqualTo("retired m-c\n");
        assertThat(cli.run("list").stdout()).doesNotContain("m-c");
    }

    @Test
    void aDryRunSaysWhatTheRealRunThenDoesEvenForASessionItCannotRetire() throws Exception {
        DockerEngineGate.require();
        assertThat(cli.run("open", "elsewhere", "--repo", bare.toString(), "--branch", "b").exitCode()).isZero();
        unusedFor("elsewhere", Duration.ofHours(2));

        // Retiring through another provider fails for a local session: the dry run must say so, not promise it.
        CliProcess.Result dry = cli.run("--provider", "docker", "retire", "--idle", "1h", "--dry-run");
        CliProcess.Result real = cli.run("--provider", "docker", "retire", "--idle", "1h");

        assertThat(dry.stdout()).as(dry.toString())
                .isEqualTo("would fail: failed to retire elsewhere: it runs on provider 'local', not 'docker'; retire it with that provider\n");
        assertThat(dry.stdout()).isEqualTo("would fail: " + real.stdout());
        assertThat(dry.exitCode()).as("the dry run exits as the real run does").isEqualTo(real.exitCode()).isEqualTo(1);
        assertThat(dry.stderr()).contains("idle for 1h").doesNotContain("PT1H");
        assertThat(state.resolve("sessions/elsewhere/app")).isDirectory();
    }

    @Test
    void aSessionIsIdleUntilTouchedAndNeverWhileACommandRunsInIt() throws Exception {
        // The command signals through files of the test's: a volume lets the isolated session see them.
        cli.env("FACTORY_PROVIDERS_LOCAL_VOLUMES", "[" + temp + "]");
        for (String id : List.of("thinking", "busy", "idle")) {
            assertThat(cli.run("open", id, "--repo", bare.toString(), "--branch", "b").exitCode()).isZero();
            unusedFor(id, Duration.ofHours(2));
        }
        Path started = temp.resolve("started");
        Path release = temp.resolve("release");
        Process running = cli.start("exec", "busy", "--", "sh", "-c",
                "touch '" + started + "'; while [ ! -f '" + release + "' ]; do sleep 0.05; done");
        try {
            assertThat(Daemons.awaitCondition(() -> Files.exists(started))).as("the command started").isTrue();
            unusedFor("busy", Duration.ofHours(2));
            assertThat(cli.run("touch", "thinking").exitCode()).isZero();

            CliProcess.Result dry = cli.run("retire", "--idle", "1h", "--dry-run");

            assertThat(dry.exitCode()).as(dry.toString()).isZero();
            assertThat(dry.stdout()).isEqualTo("would retire idle\n");
        } finally {
            Files.createFile(release);
            running.waitFor(1, TimeUnit.MINUTES);
        }
        assertThat(cli.run("touch", "nobody").exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
    }

    @Test
    void sweepAppliesTheIdlePoliciesOfTheConfig() throws Exception {
        cli.env("FACTORY_LIFECYCLE_STOP_AFTER_IDLE", "1h").env("FACTORY_LIFECYCLE_DELETE_AFTER_IDLE", "7d");
        for (String id : List.of("fresh", "an-hour", "a-week")) {
            assertThat(cli.run("open", id, "--repo", bare.toString(), "--branch", "b").exitCode()).isZero();
        }
        unusedFor("an-hour", Duration.ofMinutes(90));
        unusedFor("a-week", Duration.ofDays(8));

        CliProcess.Result sweep = cli.run("sweep");

        assertThat(sweep.exitCode()).as(sweep.toString()).isZero();
        assertThat(sweep.stdout()).contains("retired a-week (idle)", "retired an-hour (idle)").doesNotContain("fresh");
        assertThat(cli.run("status", "a-week").exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(state.resolve("sessions/a-week")).doesNotExist();
        assertThat(state.resolve("sessions/an-hour/app/README.md")).isRegularFile();
        assertThat(cli.run("sweep").stdout()).as("a stopped session is not stopped again").doesNotContain("retired");
    }

    @Test
    void retireDeleteRemovesTheSessionDirectoryAndRecord() {
        assertThat(cli.run("open", "gone", "--repo", bare.toString(), "--branch", "b").exitCode()).isZero();
        assertThat(state.resolve("sessions/gone")).isDirectory();

        CliProcess.Result retire = cli.run("retire", "gone", "--delete");

        assertThat(retire.exitCode()).as(retire.toString()).isZero();
        assertThat(state.resolve("sessions/gone")).doesNotExist();
        assertThat(cli.run("status", "gone").exitCode()).isEqualTo(2);
    }

    @Test
    void retireInALaterProcessRunsTheTeardownInTheCheckout() throws Exception {
        assertThat(cli.run("open", "td", "--repo", bare.toString(), "--branch", "b", "--teardown", "pwd > ../teardown.log").exitCode()).isZero();

        CliProcess.Result retire = cli.run("retire", "td");

        assertThat(retire.exitCode()).as(retire.toString()).isZero();
        assertThat(Files.readString(state.resolve("sessions/td/teardown.log")).strip()).isEqualTo(state.resolve("sessions/td/app").toString());
    }

    @Test
    void retireWithoutDeleteKeepsTheFiles() {
        assertThat(cli.run("open", "kept", "--repo", bare.toString(), "--branch", "b").exitCode()).isZero();

        assertThat(cli.run("retire", "kept").exitCode()).isZero();

        assertThat(state.resolve("sessions/kept/app/README.md")).isRegularFile();
    }

    @Test
    void listJsonParsesAndShowsProviderBranchAndTimes() throws Exception {
        assertThat(cli.run("open", "l1", "--repo", bare.toString(), "--branch", "topic").exitCode()).isZero();

        CliProcess.Result list = cli.run("--json", "list");

        assertThat(list.exitCode()).as(list.toString()).isZero();
        JsonNode sessions = new ObjectMapper().readTree(list.stdout()).get("sessions");
        assertThat(sessions).hasSize(1);
        JsonNode row = sessions.get(0);
        assertThat(row.get("session").asText()).isEqualTo("l1");
        assertThat(row.get("provider").asText()).isEqualTo("local");
        assertThat(row.get("branch").asText()).isEqualTo("topic");
        assertThat(row.get("status").asText()).isEqualTo("idle");
        assertThat(row.get("createdAt").asText()).isNotBlank();
        assertThat(row.get("lastUsedAt").asText()).isNotBlank();
        // The isolation in force is the selected provider's, the same wherever it is shown.
        String isolation = row.get("isolation").asText();
        assertThat(isolation).isIn("namespaces", "none");
        assertThat(new ObjectMapper().readTree(cli.run("--json", "status", "l1").stdout()).get("isolation").asText()).isEqualTo(isolation);
        JsonNode providers = new ObjectMapper().readTree(cli.run("--json", "providers").stdout()).get("providers");
        for (JsonNode provider : providers) {
            assertThat(provider.get("isolation").isNull()).as(provider.toString()).isEqualTo(!provider.get("selected").asBoolean());
            if (provider.get("selected").asBoolean()) {
                assertThat(provider.get("isolation").asText()).isEqualTo(isolation);
            }
        }
        assertThat(cli.run("list").stdout()).contains("ISOLATION").containsPattern("l1 +local +idle +" + isolation + " ");
    }

    @Test
    void aSessionOfAnotherProviderIsAskedOfItsOwnProvider() throws Exception {
        DockerEngineGate.require();
        assertThat(cli.run("open", "l2", "--repo", bare.toString(), "--branch", "topic").exitCode()).isZero();
        String isolation = new ObjectMapper().readTree(cli.run("--json", "status", "l2").stdout()).get("isolation").asText();

        // This invocation's provider cannot see the local session's sandbox: the local provider is opened and asked.
        CliProcess.Result status = cli.run("--provider", "docker", "--json", "status", "l2");

        assertThat(status.exitCode()).as(status.toString()).isZero();
        JsonNode doc = new ObjectMapper().readTree(status.stdout());
        assertThat(doc.get("status").asText()).isEqualTo("idle");
        assertThat(doc.get("isolation").asText()).isEqualTo(isolation);
        assertThat(cli.run("--provider", "docker", "list").stdout()).containsPattern("l2 +local +idle +" + isolation + " ");
    }

    @Test
    void runJsonPrintsOneDocumentWithPhasesAndExitCode() throws Exception {
        CliProcess.Result result = cli.run("--json", "run", "--session", "j1", "--repo", bare.toString(), "--branch", "j",
                "--", "echo", "hi there");

        assertThat(result.exitCode()).as(result.toString()).isZero();
        JsonNode doc = new ObjectMapper().readTree(result.stdout());
        assertThat(doc.get("session").asText()).isEqualTo("j1");
        assertThat(doc.get("provider").asText()).isEqualTo("local");
        assertThat(doc.get("branch").asText()).isEqualTo("j");
        assertThat(doc.get("exitCode").asInt()).isZero();
        assertThat(doc.get("stdout").asText()).isEqualTo("hi there\n");
        assertThat(doc.get("workdir").asText()).isNotBlank();
        assertThat(doc.get("phases")).isNotEmpty();
        assertThat(doc.get("isolation").asText()).isIn("namespaces", "none");
    }

    @Test
    void aProvidersOwnCodeKeepsItsNameAndKindInJson() throws Exception {
        // FOREIGN_DIRECTORY is the local provider's own code (LocalErrorCode): it refuses a non-empty directory it did not make.
        Files.writeString(Files.createDirectories(state.resolve("sessions/alien")).resolve("notes.txt"), "someone else's");

        CliProcess.Result result = cli.run("--json", "run", "--session", "alien", "--repo", bare.toString(), "--branch", "a",
                "--", "true");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(1);
        JsonNode doc = new ObjectMapper().readTree(result.stdout());
        assertThat(doc.get("code").asText()).as(result.toString()).isEqualTo("FOREIGN_DIRECTORY");
        assertThat(doc.get("kind").asText()).isEqualTo("SANDBOX");
    }

    @Test
    void unknownProviderExitsTwoListingTheAvailableOnes() {
        CliProcess.Result result = cli.run("--provider", "nope", "list");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderr()).contains("Unknown sandbox provider 'nope'; available: [").contains("local").contains("docker");
        assertThat(result.stderr()).doesNotContain("\tat ");
    }

    @Test
    void invalidBranchExitsTwoAndCreatesNothing() throws Exception {
        CliProcess.Result result = cli.run("run", "--session", "bad", "--repo", bare.toString(), "--branch", "a..b", "--", "true");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderr()).contains("a..b");
        assertThat(state.resolve("sessions/bad")).doesNotExist();
        assertThat(state.resolve("sessions").toFile().list()).isNullOrEmpty();
    }

    @Test
    void openingAPlainDirectorySaysItIsNoGitRepositoryNotHowToMountIt() throws Exception {
        Path plain = Files.createDirectories(temp.resolve("plain"));
        Files.writeString(plain.resolve("notes.txt"), "not a repository\n");

        CliProcess.Result open = cli.run("open", "p1", "--repo", plain.toString(), "--branch", "b");

        assertThat(open.exitCode()).as(open.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(open.stderr()).contains("Repository " + plain + " is a directory on this host but not a git repository; run 'git init'")
                .doesNotContain("docker").doesNotContain("volumes");
        CliProcess.Result status = cli.run("status", "p1");
        assertThat(status.exitCode()).as("no session left").isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(status.stderr()).as("the CLI names its command").contains("open it first with 'factory open'");
    }

    @Test
    void aFailedOpenLeavesNoSessionDirectoryOrLeaseAndTheIdStaysFree() {
        CliProcess.Result open = cli.run("open", "o1", "--repo", temp.resolve("nope").toString(), "--branch", "x");

        assertThat(open.exitCode()).as(open.toString()).isNotZero();
        CliProcess.Result list = cli.run("--json", "list");
        assertThat(list.stdout()).as(list.toString()).doesNotContain("o1");
        assertThat(cli.run("status", "o1").exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(state.resolve("sessions/o1")).doesNotExist();
        CliProcess.Result reopen = cli.run("open", "o1", "--repo", bare.toString(), "--branch", "x");
        assertThat(reopen.exitCode()).as("the id is free: no lease or record left; " + reopen).isZero();
    }

    @Test
    void missingGitInTheSandboxExitsOneWithTheGitMissingExplanation() throws Exception {
        Path config = temp.resolve("factory.yaml");
        Files.writeString(config, "providers:\n  local:\n    env:\n      PATH: /nonexistent\n");

        CliProcess.Result result = cli.run("--config", config.toString(), "run", "--session", "nogit", "--repo", bare.toString(),
                "--branch", "b", "--", "true");

        assertThat(result.exitCode()).as(result.toString()).isEqualTo(1);
        assertThat(result.stderr()).containsIgnoringCase("git");
        assertThat(result.stdout() + result.stderr()).doesNotContain("\tat ");
    }

    @Test
    void providersListsEveryDiscoveredProviderWithJarAndConfigKeys() {
        CliProcess.Result result = cli.run("providers");

        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.stdout()).contains("local (selected)").contains("docker").contains("custom")
                .contains("factory.jar").contains("networkMode").contains("root")
                .contains("kubernetes").contains("networkPolicy").contains("storageClass");
    }

    @Test
    void verboseShowsTheFactorysOwnDebugLinesNotLibraryTimings() {
        CliProcess.Result result = cli.run("--verbose", "list");

        assertThat(result.exitCode()).as(result.toString()).isZero();
        assertThat(result.stderr()).contains("factory: debug: Discovered sandbox provider 'local'");
        // Guice logs its binding timings at debug level ("Module execution: 80ms", ...).
        assertThat(result.stderr()).doesNotContainPattern("(?i)module execution|binding (creation|initialization)|injector");
    }

    @Test
    void helpVersionAndCompletionWork() {
        assertThat(cli.run("--version").stdout()).startsWith("factory ");
        CliProcess.Result help = cli.run("run", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.stdout()).contains("Examples:").contains("--keep");
        CliProcess.Result completion = cli.run("completion", "bash");
        assertThat(completion.exitCode()).isZero();
        assertThat(completion.stdout()).contains("complete -F").contains("retire");
    }

    @Test
    void globalOptionsAlsoWorkAfterTheCommandName() {
        CliProcess.Result result = cli.run("list", "--provider", "nope");

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderr()).contains("Unknown sandbox provider 'nope'");
    }
}
