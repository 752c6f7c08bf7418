package io.sandboxfactory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The factory daemon as users meet it: the real jar as client processes, the daemon it starts as a
 * real process, real git and the local provider. Which process ran a command is read from the
 * command's own ancestry in /proc, and the commands write pid files to the test's directory: so the
 * local provider runs without isolation here (a pid namespace would hide the ancestry, a private
 * file system the files). That commands die with their host inside the boundary is {@link
 * HostDeathCliIT}'s. Every test stops the daemons it started (by removing their sockets, which is
 * also what it tests in one case) before its directory is deleted.
 */
class FactoryDaemonIT {

    /** Prints the pids of the command's ancestors, nearest first. */
    private static final String ANCESTORS = "p=$PPID; while [ \"$p\" -gt 1 ]; do echo \"$p\"; p=$(cut -d' ' -f4 /proc/$p/stat); done";

    @TempDir
    Path temp;

    Path state;
    Path bare;
    CliProcess cli;
    Daemons daemons;

    @BeforeEach
    void setUp() throws Exception {
        state = temp.resolve("state");
        bare = GitRepos.bareWithMain(temp, "app");
        cli = alone().withDaemon();
        daemons = new Daemons(state);
    }

    @AfterEach
    void stopDaemons() throws Exception {
        daemons.stop();
    }

    private Path daemonDirectory() {
        return daemons.directory();
    }

    private List<ProcessHandle> daemons() {
        return daemons.processes();
    }

    private ProcessHandle awaitDaemon() {
        awaitDaemons(1);
        return daemons().get(0);
    }

    /** Waits until {@code count} daemons run and as many sockets accept connections (a process may not listen yet). */
    private void awaitDaemons(int count) {
        assertThat(awaitCondition(() -> daemons().size() == count && daemons.sockets().stream().filter(Daemons::listening).count() == count))
                .as(count + " daemon(s) listening for " + state).isTrue();
    }

    private Optional<Path> socket() {
        return daemons.sockets().stream().findFirst();
    }

    private static boolean awaitCondition(BooleanSupplier condition) {
        return Daemons.awaitCondition(condition);
    }

    /** The pids {@link #ANCESTORS} printed at the start of a command's output. */
    private static List<Long> leadingPids(String output) {
        return output.lines().takeWhile(line -> line.matches("\\d+")).map(Long::parseLong).toList();
    }

    /** The same commands in a process of their own, from the same working directory. */
    private CliProcess alone() {
        return new CliProcess(state).in(temp).env("FACTORY_PROVIDERS_LOCAL_ISOLATION", "none");
    }

    /** Output without the pids {@link #ANCESTORS} printed. */
    private static String withoutPids(String output) {
        return output.lines().dropWhile(line -> line.matches("\\d+")).map(line -> line + "\n").reduce("", String::concat);
    }

    /** Progress lines without their elapsed times, which are the only part that may differ between runs. */
    private static String withoutTimes(String stderr) {
        return stderr.replaceAll("\\[\\d+\\.\\d s\\]", "[t]");
    }

    /** Progress of a template build without its times and the build sandbox's unique suffix. */
    private static String withoutBuildIds(String stderr) {
        return withoutTimes(stderr).replaceAll("(template-build-t[0-9a-f]+)-[0-9a-z]+", "$1-X");
    }

    /** A --json document without its durations. */
    private static JsonNode withoutDurations(String json) throws IOException {
        JsonNode doc = new ObjectMapper().readTree(json);
        zeroDurations(doc);
        return doc;
    }

    private static void zeroDurations(JsonNode node) {
        if (node instanceof ObjectNode object && object.has("durationMillis")) {
            object.put("durationMillis", 0);
        }
        node.forEach(FactoryDaemonIT::zeroDurations);
    }

    /** Runs {@code args} through the daemon and then in a process of its own; both must give the same exit code, stdout and stderr. */
    private CliProcess.Result sameBothWays(String... args) {
        CliProcess.Result served = cli.run(args);
        CliProcess.Result alone = alone().run(args);
        assertThat(served.exitCode()).as("exit code through the daemon of " + List.of(args) + "\n" + served + "\nalone:\n" + alone)
                .isEqualTo(alone.exitCode());
        assertThat(served.stdout()).as("stdout of " + List.of(args)).isEqualTo(alone.stdout());
        assertThat(withoutTimes(served.stderr())).as("stderr of " + List.of(args)).isEqualTo(withoutTimes(alone.stderr()));
        return served;
    }

    private long served(String line) throws IOException {
        return Files.readAllLines(daemons.logs().stream().findFirst().orElseThrow()).stream().filter(l -> l.contains(" " + line)).count();
    }

    private void open() {
        CliProcess.Result open = cli.run("open", "s1", "--repo", bare.toString(), "--branch", "work");
        assertThat(open.exitCode()).as(open.toString()).isZero();
    }

    @Test
    void afterOpenTheNextExecsRunInTheDaemonWithTheirOutputAndExitCode() {
        open();
        ProcessHandle daemon = awaitDaemon();

        CliProcess.Result exec = cli.run("exec", "s1", "--", "sh", "-c",
                ANCESTORS + "; git rev-parse --abbrev-ref HEAD; echo to-err >&2; exit 7");
        assertThat(exec.exitCode()).as(exec.toString()).isEqualTo(7);
        assertThat(exec.stdout()).endsWith("\nwork\n");
        assertThat(exec.stderr()).contains("to-err");
        assertThat(leadingPids(exec.stdout())).as("the command ran under the daemon").contains(daemon.pid());

        CliProcess.Result json = cli.run("--json", "exec", "s1", "--", "echo", "hi");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        assertThat(json.stdout()).contains("\"stdout\" : \"hi\\n\"").contains("\"branch\" : \"work\"");
        assertThat(daemons()).containsExactly(daemon);
    }

    @Test
    void anOpenServedByTheDaemonLeavesItsSandboxWarmForTheFirstExec() throws Exception {
        open();
        awaitDaemon();
        CliProcess.Result second = cli.run("open", "s2", "--repo", bare.toString(), "--branch", "two", "--setup", "echo set-up-ran");
        assertThat(second.exitCode()).as(second.toString()).isZero();
        assertThat(second.stderr()).as("progress and setup output reach the caller").contains("cloning", "Cloning into", "set-up-ran", "ready");

        CliProcess.Result exec = cli.run("exec", "s2", "--", "git", "rev-parse", "--abbrev-ref", "HEAD");
        assertThat(exec.stdout()).isEqualTo("two\n");
        assertThat(exec.stderr()).as("no start, no probe, no fetch: the daemon holds the running sandbox").isEmpty();
        assertThat(daemonLog()).contains("served open: exit 0", "served exec: exit 0");
    }

    private String daemonLog() throws IOException {
        return Files.readString(daemons.logs().stream().findFirst().orElseThrow());
    }

    @Test
    void statusListCatLsAndCpAreServedByTheDaemonWithTheCallersWorkingDirectory() throws Exception {
        open();
        awaitDaemon();
        Path caller = Files.createDirectories(temp.resolve("caller"));
        Files.writeString(caller.resolve("in.txt"), "from the host\n");
        cli.in(caller);

        CliProcess.Result copyIn = cli.run("cp", "in.txt", "s1:copied.txt");
        assertThat(copyIn.exitCode()).as(copyIn.toString()).isZero();
        assertThat(cli.run("cat", "s1:copied.txt").stdout()).isEqualTo("from the host\n");
        assertThat(cli.run("ls", "s1").stdout().lines().toList()).contains("copied.txt", "README.md");
        CliProcess.Result copyOut = cli.run("cp", "s1:README.md", "out.md");
        assertThat(copyOut.exitCode()).as(copyOut.toString()).isZero();
        assertThat(caller.resolve("out.md")).hasContent("hello from app");
        assertThat(cli.run("--json", "status", "s1").stdout()).contains("\"branch\" : \"work\"");
        assertThat(cli.run("--json", "list").stdout()).contains("\"s1\"");
        CliProcess.Result outside = cli.run("cat", "s1:../../etc/passwd");
        assertThat(outside.exitCode()).as(outside.toString()).isEqualTo(ExitCodes.BAD_INPUT);

        assertThat(daemonLog()).as("the daemon ran each of them").contains("served cp: exit 0", "served cat: exit 0", "served ls: exit 0",
                "served status: exit 0", "served list: exit 0", "served cat: exit 2").doesNotContain("copied.txt");
    }

    @Test
    void callersWithDifferentEnvironmentsShareOneDaemonAndEachSeesItsOwn() {
        String show = ANCESTORS + "; echo \"home=$HOME\"";
        cli.env("HOME", temp.resolve("home-a").toString());
        open();
        ProcessHandle daemon = awaitDaemon();

        CliProcess.Result a = cli.run("exec", "s1", "--", "sh", "-c", show);
        cli.env("HOME", temp.resolve("home-b").toString());
        CliProcess.Result b = cli.run("exec", "s1", "--", "sh", "-c", show);
        cli.env("HOME", temp.resolve("home-a").toString());
        CliProcess.Result aAgain = cli.run("exec", "s1", "--", "sh", "-c", show);

        assertThat(a.stdout()).as(a.toString()).endsWith("home=" + temp.resolve("home-a") + "\n");
        assertThat(b.stdout()).as(b.toString()).endsWith("home=" + temp.resolve("home-b") + "\n");
        assertThat(aAgain.stdout()).as(aAgain.toString()).endsWith("home=" + temp.resolve("home-a") + "\n");
        for (CliProcess.Result served : List.of(a, b, aAgain)) {
            assertThat(leadingPids(served.stdout())).as("served by the one daemon").contains(daemon.pid());
        }
        assertThat(daemons()).as("one daemon for the state directory").hasSize(1);
        assertThat(daemons.sockets()).hasSize(1);
    }

    @Test
    void concurrentExecsInOneSessionAllGetTheirOwnOutput() throws Exception {
        open();
        awaitDaemon();
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<CliProcess.Result>> results = new ArrayList<>();
            for (int i = 0; i < 12; i++) {
                String mark = "call-" + i;
                results.add(pool.submit(() -> cli.run("exec", "s1", "--", "sh", "-c", "echo " + mark + "; exit " + (mark.length() % 5))));
            }
            for (int i = 0; i < results.size(); i++) {
                CliProcess.Result result = results.get(i).get(5, TimeUnit.MINUTES);
                assertThat(result.stdout()).as(result.toString()).isEqualTo("call-" + i + "\n");
                assertThat(result.exitCode()).isEqualTo(("call-" + i).length() % 5);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aClientKilledMidCommandTakesItsCommandDownWithIt() throws Exception {
        open();
        awaitDaemon();
        Path pidFile = temp.resolve("sleeper.pid");
        Process client = cli.start("exec", "s1", "--", "sh", "-c", "echo $$ > '" + pidFile + "'; exec sleep 300");
        long sleeper = TestProcesses.awaitPid(pidFile);
        assertThat(ProcessHandle.of(sleeper)).get().matches(ProcessHandle::isAlive);

        client.destroyForcibly().waitFor(1, TimeUnit.MINUTES);

        assertThat(awaitCondition(() -> TestProcesses.ended(sleeper)))
                .as("the daemon killed the command of the client that went away").isTrue();
        CliProcess.Result after = cli.run("exec", "s1", "--", "echo", "still-serving");
        assertThat(after.stdout()).isEqualTo("still-serving\n");
    }

    @Test
    void aDeadDaemonsSocketIsNoObstacleAndTheNextCommandStartsAFreshDaemon() throws Exception {
        open();
        ProcessHandle dead = awaitDaemon();
        dead.destroyForcibly();
        assertThat(awaitCondition(() -> !dead.isAlive())).isTrue();
        assertThat(socket()).as("a SIGKILLed daemon leaves its socket file").isPresent();

        CliProcess.Result exec = cli.run("exec", "s1", "--", "sh", "-c", ANCESTORS);
        assertThat(exec.exitCode()).as(exec.toString()).isZero();
        assertThat(leadingPids(exec.stdout())).doesNotContain(dead.pid());

        ProcessHandle fresh = awaitDaemon();
        assertThat(fresh.pid()).isNotEqualTo(dead.pid());
        CliProcess.Result served = cli.run("exec", "s1", "--", "sh", "-c", ANCESTORS);
        assertThat(leadingPids(served.stdout())).contains(fresh.pid());
    }

    @Test
    void theDaemonLeavesWhenItsSocketIsRemovedAndWhenIdle() throws Exception {
        open();
        ProcessHandle daemon = awaitDaemon();
        Files.delete(socket().orElseThrow());
        assertThat(awaitCondition(() -> !daemon.isAlive())).as("gone with its socket").isTrue();

        cli.env("FACTORY_DAEMON_IDLE", "5s");
        assertThat(cli.run("exec", "s1", "--", "true").exitCode()).isZero();
        ProcessHandle idle = awaitDaemon();
        assertThat(awaitCondition(() -> !idle.isAlive())).as("gone after five seconds without requests").isTrue();
        assertThat(socket()).as("an idle daemon removes its socket").isEmpty();
    }

    @Test
    void statusAndListAnswerFromTheStoreWithoutStartingADaemon() throws Exception {
        CliProcess.Result open = alone().run("open", "s1", "--repo", bare.toString(), "--branch", "work");
        assertThat(open.exitCode()).as(open.toString()).isZero();

        CliProcess.Result list = cli.run("list");
        assertThat(list.exitCode()).as(list.toString()).isZero();
        assertThat(list.stdout()).contains("s1");
        CliProcess.Result status = cli.run("status", "s1");
        assertThat(status.exitCode()).as(status.toString()).isZero();
        // A client writes to the log before it starts a daemon, so the log shows a start even before the daemon runs.
        assertThat(daemonStarts()).as("daemon starts after list and status").isZero();
        assertThat(daemons()).isEmpty();

        assertThat(cli.run("exec", "s1", "--", "true").exitCode()).isZero();
        assertThat(daemonStarts()).as("daemon starts after exec").isEqualTo(1);
        awaitDaemon();
        CliProcess.Result served = cli.run("list");
        assertThat(served.stdout()).as("list through the running daemon").contains("s1");
    }

    @Test
    void retireAndSweepRunInTheRunningDaemonButNeverStartOne() throws Exception {
        CliProcess.Result inProcess = alone().run("open", "s0", "--repo", bare.toString(), "--branch", "work");
        assertThat(inProcess.exitCode()).as(inProcess.toString()).isZero();
        CliProcess.Result retireAlone = cli.run("retire", "s0", "--delete");
        assertThat(retireAlone.exitCode()).as(retireAlone.toString()).isZero();
        assertThat(cli.run("sweep").exitCode()).isZero();
        assertThat(daemonStarts()).as("daemon starts after retire and sweep").isZero();

        open();
        ProcessHandle daemon = awaitDaemon();
        Path directory = state.resolve("sessions").resolve("s1");
        assertThat(directory).isDirectory();
        CliProcess.Result retire = cli.run("retire", "s1", "--delete");
        CliProcess.Result sweep = cli.run("sweep");

        assertThat(retire.exitCode()).as(retire.toString()).isZero();
        assertThat(sweep.exitCode()).as(sweep.toString()).isZero();
        assertThat(directory).doesNotExist();
        assertThat(cli.run("status", "s1").exitCode()).isNotZero();
        assertThat(daemonLog()).as("the daemon ran them").contains("served retire: exit 0", "served sweep: exit 0");
        assertThat(daemons()).containsExactly(daemon);
    }

    private long daemonStarts() throws IOException {
        long starts = 0;
        for (Path log : daemons.logs()) {
            starts += Files.readAllLines(log).stream().filter(line -> line.contains(" starting a factory daemon ")).count();
        }
        return starts;
    }

    @Test
    void aDaemonThatCannotListenIsNotStartedAgainByEveryCommand() throws Exception {
        open();
        ProcessHandle first = awaitDaemon();
        Path socket = socket().orElseThrow();
        Files.delete(socket);
        assertThat(awaitCondition(() -> !first.isAlive())).isTrue();
        // Something that is not a socket and cannot be removed now sits where the daemon listens.
        Files.createDirectories(socket.resolve("in-the-way"));
        Path log = Path.of(socket.toString().replaceFirst("\\.sock$", ".log"));
        Path failed = Path.of(socket.toString().replaceFirst("\\.sock$", ".failed"));

        assertThat(cli.run("exec", "s1", "--", "true").exitCode()).isZero();
        assertThat(awaitCondition(() -> Files.exists(failed))).as("the daemon that could not listen left its marker").isTrue();
        for (int i = 0; i < 3; i++) {
            assertThat(cli.run("exec", "s1", "--", "echo", "in-process").stdout()).isEqualTo("in-process\n");
        }
        // A client writes to the log before it starts a daemon, so a start the marker should have prevented shows there.
        assertThat(Files.readAllLines(log).stream().filter(line -> line.contains(" starting a factory daemon ")).count())
                .as("daemon starts in " + log).isEqualTo(2);
        assertThat(Files.readAllLines(log).stream().filter(line -> line.contains(" failed: ")).count())
                .as("daemon start failures in " + log).isEqualTo(1);
        assertThat(daemons()).isEmpty();
        GitRepos.deleteRecursively(socket);
    }

    @Test
    void aSessionRetiredByAnotherProcessIsReportedByTheDaemonAsUnknown() {
        open();
        awaitDaemon();
        assertThat(cli.run("exec", "s1", "--", "true").exitCode()).isZero();

        CliProcess.Result retire = cli.env("FACTORY_DAEMON", "off").run("retire", "s1", "--delete");
        assertThat(retire.exitCode()).as(retire.toString()).isZero();
        cli.withDaemon();

        CliProcess.Result exec = cli.run("exec", "s1", "--", "true");
        assertThat(exec.exitCode()).as(exec.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(exec.stderr()).contains("Session 's1' is not known");
        assertThat(state.resolve("sessions/s1")).doesNotExist();
    }

    @Test
    void aSessionStoppedByAnotherProcessIsStartedAgainByTheNextExecInTheDaemon() {
        open();
        ProcessHandle daemon = awaitDaemon();
        assertThat(cli.run("exec", "s1", "--", "sh", "-c", "echo kept > kept.txt").exitCode()).isZero();

        CliProcess.Result retire = cli.env("FACTORY_DAEMON", "off").run("retire", "s1");
        assertThat(retire.exitCode()).as(retire.toString()).isZero();
        cli.withDaemon();

        CliProcess.Result exec = cli.run("exec", "s1", "--", "sh", "-c", ANCESTORS + "; cat kept.txt; git rev-parse --abbrev-ref HEAD");
        assertThat(exec.exitCode()).as(exec.toString()).isZero();
        assertThat(exec.stdout()).endsWith("kept\nwork\n");
        assertThat(leadingPids(exec.stdout())).contains(daemon.pid());
        assertThat(exec.stderr()).as("the daemon started the stopped session again, with progress").contains("ready");
    }

    @Test
    void theDaemonMapsTheClassArchiveOfTheCommandThatStartedIt() throws Exception {
        assertThat(StartupArchive.archive()).as("the CLI tests start the jar with a class archive, as ./factory does").isPresent();
        String archive = StartupArchive.archive().orElseThrow().toString();

        open();
        ProcessHandle daemon = awaitDaemon();
        assertThat(cli.run("exec", "s1", "--", "true").exitCode()).isZero();

        assertThat(daemon.info().arguments().map(List::of).orElseThrow()).containsSubsequence(StartupArchive.archiveOptions());
        assertThat(Files.readString(Path.of("/proc", Long.toString(daemon.pid()), "maps"))).as("the daemon's memory maps").contains(archive);
    }

    @Test
    void tokensInTheCallersEnvironmentReachNeitherTheDaemonsCommandLineNorItsLog() throws Exception {
        String token = "ghp_daemonSecret0123456789";
        cli.env("GH_TOKEN", token);
        open();
        ProcessHandle daemon = awaitDaemon();
        CliProcess.Result exec = cli.run("exec", "s1", "--", "true");
        assertThat(exec.exitCode()).as(exec.toString()).isZero();

        assertThat(daemon.info().commandLine().orElseThrow()).doesNotContain(token);
        for (Path log : daemons.logs()) {
            assertThat(Files.readString(log)).contains("serving").doesNotContain(token);
        }
    }

    @Test
    void runOpensAndDestroysItsSessionInTheDaemonWithTheOutputProgressJsonAndExitCodeOfItsOwnProcess() throws Exception {
        open();
        ProcessHandle daemon = awaitDaemon();
        String[] run = {"run", "--session", "r1", "--repo", bare.toString(), "--branch", "feature/x", "--", "sh", "-c",
                ANCESTORS + "; cat README.md; git rev-parse --abbrev-ref HEAD; echo oops >&2; exit 7"};

        CliProcess.Result served = cli.run(run);
        assertThat(state.resolve("sessions/r1")).as("destroyed by the daemon").doesNotExist();
        CliProcess.Result alone = alone().run(run);

        assertThat(served.exitCode()).as(served.toString()).isEqualTo(7);
        assertThat(alone.exitCode()).as(alone.toString()).isEqualTo(7);
        assertThat(leadingPids(served.stdout())).as("the command ran under the daemon").contains(daemon.pid());
        assertThat(leadingPids(alone.stdout())).doesNotContain(daemon.pid());
        assertThat(withoutPids(served.stdout())).isEqualTo(withoutPids(alone.stdout())).isEqualTo("hello from app\nfeature/x\n");
        assertThat(withoutTimes(served.stderr())).isEqualTo(withoutTimes(alone.stderr())).contains("cloning", "ready", "oops");
        assertThat(state.resolve("sessions/r1")).doesNotExist();

        String[] json = {"--json", "run", "--session", "j1", "--repo", bare.toString(), "--branch", "j", "--", "echo", "hi there"};
        CliProcess.Result servedJson = cli.run(json);
        CliProcess.Result aloneJson = alone().run(json);
        assertThat(servedJson.exitCode()).as(servedJson.toString()).isZero();
        assertThat(withoutDurations(servedJson.stdout())).isEqualTo(withoutDurations(aloneJson.stdout()));
        assertThat(withoutDurations(servedJson.stdout()).path("stdout").asText()).isEqualTo("hi there\n");

        assertThat(served("served run: exit 7")).as("the daemon ran the run").isEqualTo(1);
        assertThat(served("served run: exit 0")).as("the daemon ran the --json run").isEqualTo(1);
        assertThat(daemons()).containsExactly(daemon);
    }

    @Test
    void aClientKilledDuringRunTakesItsCommandDownAndTheDaemonStillDestroysTheSession() throws Exception {
        open();
        awaitDaemon();
        Path pidFile = temp.resolve("run.pid");
        Process client = cli.start("run", "--session", "r-gone", "--repo", bare.toString(), "--branch", "k", "--", "sh", "-c",
                "echo $$ > '" + pidFile + "'; exec sleep 300");
        long sleeper = TestProcesses.awaitPid(pidFile);
        assertThat(state.resolve("sessions/r-gone")).isDirectory();

        // SIGTERM, as Ctrl-C ends the client's JVM: the daemon sees its client go away.
        client.destroy();
        assertThat(client.waitFor(1, TimeUnit.MINUTES)).isTrue();

        assertThat(awaitCondition(() -> TestProcesses.ended(sleeper)))
                .as("the daemon killed the command").isTrue();
        assertThat(awaitCondition(() -> !Files.exists(state.resolve("sessions/r-gone")))).as("and destroyed the session").isTrue();
        assertThat(awaitCondition(() -> {
            try {
                return served("served run: exit") == 1;
            } catch (IOException e) {
                return false;
            }
        })).as("the daemon finished the request").isTrue();
        assertThat(cli.run("status", "r-gone").exitCode()).as("the session is forgotten").isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(cli.run("exec", "s1", "--", "echo", "still-serving").stdout()).isEqualTo("still-serving\n");
    }

    @Test
    void logDiffAndExportAreServedByTheDaemonWithTheResultsOfTheirOwnProcess() throws Exception {
        open();
        awaitDaemon();
        CliProcess.Result change = cli.run("exec", "s1", "--", "sh", "-c", "echo committed >> README.md && git -c user.name=A"
                + " -c user.email=a@example.invalid commit -q -am one && echo uncommitted > README.md && echo new > new.txt");
        assertThat(change.exitCode()).as(change.toString()).isZero();

        assertThat(sameBothWays("log", "s1").stdout()).contains("daemon");
        assertThat(sameBothWays("--json", "log", "s1", "-n", "1").stdout()).contains("\"origin\" : \"daemon\"");
        assertThat(sameBothWays("log", "s1", "-n", "0").exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(sameBothWays("diff", "s1").stdout()).contains("+uncommitted");
        assertThat(sameBothWays("diff", "s1", "--stat").stdout()).contains("README.md");
        assertThat(sameBothWays("--json", "diff", "s1").stdout()).contains("new.txt");
        assertThat(sameBothWays("diff", "nobody").exitCode()).isEqualTo(ExitCodes.BAD_INPUT);

        Path intoServed = temp.resolve("served-clone");
        Path intoAlone = temp.resolve("alone-clone");
        GitRepos.git(temp, "clone", "-q", bare.toString(), intoServed.toString());
        GitRepos.git(temp, "clone", "-q", bare.toString(), intoAlone.toString());
        CliProcess.Result exported = cli.in(intoServed).run("export", "s1");
        CliProcess.Result exportedAlone = alone().in(intoAlone).run("export", "s1");
        assertThat(exported.exitCode()).as(exported.toString()).isZero();
        assertThat(exported.stdout()).startsWith("factory/s1/work ").isEqualTo(exportedAlone.stdout());
        // The daemon's sandbox is warm: it skips the reconnect lines of a process of its own, and adds none.
        assertThat(withoutTimes(exportedAlone.stderr()).lines()).containsSubsequence(withoutTimes(exported.stderr()).lines().toList());
        assertThat(exported.stderr()).contains("exporting work of session s1", "uncommitted changes");
        assertThat(GitRepos.git(intoServed, "rev-parse", "factory/s1/work")).isEqualTo(GitRepos.git(intoAlone, "rev-parse", "factory/s1/work"));

        assertThat(served("served log: exit 0")).isEqualTo(2);
        assertThat(served("served log: exit 2")).isEqualTo(1);
        assertThat(served("served diff: exit 0")).isEqualTo(3);
        assertThat(served("served diff: exit 2")).isEqualTo(1);
        assertThat(served("served export: exit 0")).isEqualTo(1);
    }

    @Test
    void templateBuildListRmAndPruneAreServedByTheDaemonWithTheResultsOfTheirOwnProcess() throws Exception {
        open();
        awaitDaemon();
        CliProcess.Result build = cli.run("template", "build", "--repo", bare.toString(), "--setup", "echo built > built.txt");
        assertThat(build.exitCode()).as(build.toString()).isZero();
        String servedName = build.stdout().strip();
        CliProcess.Result buildAlone = alone().run("template", "build", "--repo", bare.toString(), "--setup", "echo built > built.txt");
        assertThat(buildAlone.exitCode()).as(buildAlone.toString()).isZero();
        assertThat(withoutBuildIds(build.stderr())).isEqualTo(withoutBuildIds(buildAlone.stderr())).contains("building a template");
        String aloneName = buildAlone.stdout().strip();

        assertThat(sameBothWays("template", "list").stdout()).contains(servedName, aloneName);
        assertThat(sameBothWays("--json", "template", "list").stdout()).contains("\"name\" : \"" + servedName + "\"");
        assertThat(sameBothWays("template", "rm", "not/valid").exitCode()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(cli.run("template", "rm", servedName).exitCode()).isZero();
        assertThat(sameBothWays("template", "list").stdout()).doesNotContain(servedName).contains(aloneName);
        CliProcess.Result prune = cli.run("template", "prune", "--older-than", "1ms");
        assertThat(prune.exitCode()).as(prune.toString()).isZero();
        assertThat(prune.stdout()).contains(aloneName);
        assertThat(sameBothWays("template", "list").stdout()).isEmpty();

        assertThat(served("served template: exit 0")).as("build, four lists, rm and prune").isEqualTo(7);
        assertThat(served("served template: exit 2")).isEqualTo(1);
    }

    @Test
    void aVerboseRequestGetsTheDebugLogOfItsOwnRequestOnlyAndOthersGetNone() throws Exception {
        open();
        awaitDaemon();
        Path started = temp.resolve("a-started");
        Path go = temp.resolve("go");
        CompletableFuture<CliProcess.Result> a = CompletableFuture.supplyAsync(() -> cli.run("--verbose", "run", "--session", "va",
                "--repo", bare.toString(), "--branch", "a", "--", "sh", "-c",
                "touch '" + started + "'; until [ -e '" + go + "' ]; do sleep 0.1; done"));
        assertThat(awaitCondition(() -> Files.exists(started))).as("the verbose run holds").isTrue();

        CliProcess.Result b = cli.run("run", "--session", "vb", "--repo", bare.toString(), "--branch", "b", "--verbose", "--", "true");
        CliProcess.Result c = cli.run("run", "--session", "vc", "--repo", bare.toString(), "--branch", "c", "--", "true");
        Files.createFile(go);
        CliProcess.Result aDone = a.get(5, TimeUnit.MINUTES);

        assertThat(aDone.exitCode()).as(aDone.toString()).isZero();
        assertThat(b.exitCode()).as(b.toString()).isZero();
        assertThat(c.exitCode()).as(c.toString()).isZero();
        assertThat(aDone.stderr()).contains("factory: debug: Session 'va' runs: ").doesNotContain("'vb'", "'vc'");
        assertThat(b.stderr()).contains("factory: debug: Session 'vb' runs: ").doesNotContain("'va'", "'vc'");
        assertThat(c.stderr()).doesNotContain("debug:").contains("ready");
        assertThat(served("served run (verbose): exit 0")).as("both verbose runs were served").isEqualTo(2);
        assertThat(served("served run: exit 0")).isEqualTo(1);
        assertThat(daemonLog()).as("no debug line in the daemon's own log").doesNotContain("debug:");

        CliProcess.Result alone = alone().run("--verbose", "run", "--session", "vd", "--repo", bare.toString(), "--branch", "d", "--", "true");
        assertThat(alone.stderr()).as("the same debug lines in a process of its own").contains("factory: debug: Session 'vd' runs: ");
    }

    @Test
    void theCommandThatStartsTheDaemonSaysSoOnceWithItsPidAndIdleTimeout() throws Exception {
        cli.env("FACTORY_DAEMON_IDLE", "7m");
        CliProcess.Result open = cli.run("--json", "open", "s1", "--repo", bare.toString(), "--branch", "work");
        assertThat(open.exitCode()).as(open.toString()).isZero();
        ProcessHandle daemon = awaitDaemon();
        assertThat(open.stderr().lines().filter(line -> line.startsWith("factory: started a factory daemon")))
                .as(open.toString())
                .containsExactly("factory: started a factory daemon (pid " + daemon.pid() + "); it stops after 7 min idle; factory daemon stop");
        assertThat(new ObjectMapper().readTree(open.stdout()).path("session").isMissingNode())
                .as("stdout stays one JSON document: " + open.stdout()).isFalse();

        CliProcess.Result exec = cli.run("exec", "s1", "--", "true");
        CliProcess.Result second = cli.run("open", "s2", "--repo", bare.toString(), "--branch", "two");
        assertThat(exec.stderr() + second.stderr()).as("commands that use the running daemon").doesNotContain("started a factory daemon");
        assertThat(daemons()).containsExactly(daemon);
    }

    @Test
    void daemonStatusShowsThePidSocketIdleTimeoutAndWarmSessionsAsTextAndJson() throws Exception {
        CliProcess.Result none = cli.run("daemon", "status");
        assertThat(none.exitCode()).as(none.toString()).isEqualTo(ExitCodes.NO_DAEMON);
        assertThat(none.stdout()).isEqualTo("No factory daemon runs for " + state + ".\n");
        CliProcess.Result noneJson = cli.run("--json", "daemon", "status");
        assertThat(noneJson.exitCode()).isEqualTo(ExitCodes.NO_DAEMON);
        assertThat(new ObjectMapper().readTree(noneJson.stdout()).path("running").asBoolean(true)).isFalse();
        assertThat(daemons()).as("status starts no daemon").isEmpty();

        cli.env("FACTORY_DAEMON_IDLE", "90s");
        open();
        ProcessHandle daemon = awaitDaemon();
        assertThat(cli.run("exec", "s1", "--", "true").exitCode()).isZero();

        CliProcess.Result status = cli.run("daemon", "status");
        assertThat(status.exitCode()).as(status.toString()).isZero();
        assertThat(status.stdout()).contains("factory daemon (pid " + daemon.pid() + ")", "socket:        " + socket().orElseThrow(),
                "idle timeout:  90s", "running:       0 command(s)", "warm sessions: s1");

        CliProcess.Result json = cli.run("--json", "daemon", "status");
        assertThat(json.exitCode()).as(json.toString()).isZero();
        JsonNode doc = new ObjectMapper().readTree(json.stdout());
        assertThat(doc.path("running").asBoolean()).isTrue();
        JsonNode first = doc.path("daemons").path(0);
        assertThat(first.path("pid").asLong()).isEqualTo(daemon.pid());
        assertThat(first.path("socket").asText()).isEqualTo(socket().orElseThrow().toString());
        assertThat(first.path("idleTimeout").asText()).isEqualTo("90s");
        assertThat(first.path("started").asText()).isNotBlank();
        assertThat(first.path("warmSessions")).extracting(JsonNode::asText).containsExactly("s1");
    }

    @Test
    void daemonStopStopsTheRunningDaemonAndSaysWhenNoneRan() throws Exception {
        open();
        ProcessHandle daemon = awaitDaemon();

        CliProcess.Result stop = cli.run("daemon", "stop");
        assertThat(stop.exitCode()).as(stop.toString()).isZero();
        assertThat(stop.stdout()).contains("Stopped the factory daemon (pid " + daemon.pid() + ")");
        assertThat(daemon.isAlive()).as("stop returns once the daemon exited").isFalse();
        assertThat(socket()).isEmpty();
        assertThat(cli.run("daemon", "status").exitCode()).isEqualTo(ExitCodes.NO_DAEMON);

        CliProcess.Result again = cli.run("daemon", "stop");
        assertThat(again.exitCode()).as(again.toString()).isZero();
        assertThat(again.stdout()).isEqualTo("No factory daemon ran for " + state + "; nothing to stop.\n");
        CliProcess.Result exec = cli.run("exec", "s1", "--", "echo", "still-here");
        assertThat(exec.stdout()).as("the session outlives the daemon").isEqualTo("still-here\n");
    }

    @Test
    void helpIsAnsweredInTheCallersOwnProcess() throws Exception {
        open();
        awaitDaemon();
        CliProcess.Result help = cli.run("run", "--help");
        assertThat(help.exitCode()).isZero();
        assertThat(help.stdout()).contains("--keep");
        assertThat(daemonLog()).doesNotContain("served run");
    }

    @Test
    void badInputInItsOwnProcessStartsNoDaemon() {
        CliProcess.Result bad = cli.run("run", "--session", "bad", "--repo", bare.toString(), "--branch", "a..b", "--", "true");
        assertThat(bad.exitCode()).as(bad.toString()).isEqualTo(ExitCodes.BAD_INPUT);
        assertThat(daemonDirectory()).doesNotExist();
        assertThat(daemons()).isEmpty();
    }

    @Test
    void withTheDaemonTurnedOffNoneIsStarted() {
        cli.env("FACTORY_DAEMON", "off");
        open();
        assertThat(cli.run("exec", "s1", "--", "true").exitCode()).isZero();
        assertThat(daemons()).isEmpty();
        assertThat(daemonDirectory()).doesNotExist();
    }
}
