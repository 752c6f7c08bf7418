package io.sandboxfactory.cli;

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
 * command's own ancestry in /proc. Every test stops the daemons it started (by removing their
 * sockets, which is also what it tests in one case) before its directory is deleted.
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
        cli = new CliProcess(state).in(temp).withDaemon();
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
        assertThat(awaitCondition(() -> Files.exists(pidFile) && readPid(pidFile).isPresent())).as("the command started").isTrue();
        long sleeper = readPid(pidFile).orElseThrow();
        assertThat(ProcessHandle.of(sleeper)).get().matches(ProcessHandle::isAlive);

        client.destroyForcibly().waitFor(1, TimeUnit.MINUTES);

        assertThat(awaitCondition(() -> ProcessHandle.of(sleeper).map(p -> !p.isAlive()).orElse(true)))
                .as("the daemon killed the command of the client that went away").isTrue();
        CliProcess.Result after = cli.run("exec", "s1", "--", "echo", "still-serving");
        assertThat(after.stdout()).isEqualTo("still-serving\n");
    }

    private static Optional<Long> readPid(Path file) {
        try {
            String text = Files.readString(file).strip();
            return text.matches("\\d+") ? Optional.of(Long.parseLong(text)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
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
        CliProcess.Result open = new CliProcess(state).in(temp).run("open", "s1", "--repo", bare.toString(), "--branch", "work");
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
        CliProcess.Result inProcess = new CliProcess(state).in(temp).run("open", "s0", "--repo", bare.toString(), "--branch", "work");
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
    void withTheDaemonTurnedOffNoneIsStarted() {
        cli.env("FACTORY_DAEMON", "off");
        open();
        assertThat(cli.run("exec", "s1", "--", "true").exitCode()).isZero();
        assertThat(daemons()).isEmpty();
        assertThat(daemonDirectory()).doesNotExist();
    }
}
