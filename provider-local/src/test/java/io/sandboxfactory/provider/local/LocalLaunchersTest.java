package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.SandboxExecTransportException;
import io.sandboxfactory.api.support.HostProcess;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import static io.sandboxfactory.provider.local.TestBed.assertDiesSoon;
import static io.sandboxfactory.provider.local.TestBed.readPid;
import static io.sandboxfactory.provider.local.TestBed.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The guarantees of a command, for both ways of starting one: the perl fork server (the default
 * where there is perl) and the {@code setsid} program per command (the fallback).
 */
class LocalLaunchersTest {

    @TempDir
    Path temp;

    private final List<LocalFactorySandbox> factories = new ArrayList<>();
    private final List<LocalSandbox> sandboxes = new ArrayList<>();

    @AfterEach
    void close() {
        sandboxes.forEach(LocalSandbox::stop);
        factories.forEach(LocalFactorySandbox::close);
    }

    private LocalSandbox sandbox(String launcher) {
        Function<CommandThreads, Launcher> launchers = launcher.equals("fork server")
                ? threads -> new ForkServer("/usr/bin/perl", threads.pumps(), temp)
                : threads -> new ProcessLauncher(LocalSandboxProvider.findSetsid(), threads.pumps());
        LocalFactorySandbox factory = new LocalFactorySandbox(temp.resolve("sessions"),
                Map.of("PATH", "/usr/local/bin:/usr/bin:/bin", "ONLY", "this"), launchers, temp.resolve("templates"));
        factories.add(factory);
        LocalSandbox sandbox = (LocalSandbox) factory.create(FactorySandboxContext.of("s" + sandboxes.size()));
        sandboxes.add(sandbox);
        return sandbox;
    }

    @ParameterizedTest
    @ValueSource(strings = {"fork server", "setsid"})
    void outputExitCodeAndExactlyTheGivenEnvironment(String launcher) {
        LocalSandbox sandbox = sandbox(launcher);

        CommandResult result = run(sandbox, "echo out; echo err >&2; env | sort; pwd; exit 3",
                CommandOptions.builder().env(Map.of("EXTRA", "a b=c")).timeout(Duration.ofSeconds(60)).build());

        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.stderr()).isEqualTo("err\n");
        assertThat(result.stdout()).startsWith("out\n").contains("EXTRA=a b=c\n", "ONLY=this\n")
                .endsWith(sandbox.directory() + "\n");
        assertThat(result.stdout().lines().filter(l -> l.contains("=")).map(l -> l.substring(0, l.indexOf('='))))
                .as("no variable of the host leaks in (the shell adds PWD)").contains("EXTRA", "ONLY", "PATH")
                .isSubsetOf("EXTRA", "ONLY", "PATH", "PWD", "OLDPWD", "SHLVL", "_");
    }

    @ParameterizedTest
    @ValueSource(strings = {"fork server", "setsid"})
    void theShellLeadsItsOwnProcessGroupWithoutATerminalOrInput(String launcher) {
        LocalSandbox sandbox = sandbox(launcher);

        // Field 5 of /proc/<pid>/stat is the process group; /dev/tty opens only with a controlling terminal.
        CommandResult result = run(sandbox, "set -- $(sed 's/.*) //' /proc/$$/stat); echo \"$$ $3\"; "
                + "if (: < /dev/tty) 2>/dev/null; then echo tty; else echo no-tty; fi; cat; echo end");

        String[] ids = result.stdout().lines().findFirst().orElseThrow().split(" ");
        assertThat(ids[1]).as("process group of shell %s", ids[0]).isEqualTo(ids[0]);
        assertThat(ids[0]).isNotEqualTo(Long.toString(ProcessHandle.current().pid()));
        assertThat(result.stdout()).endsWith("no-tty\nend\n");
    }

    @ParameterizedTest
    @ValueSource(strings = {"fork server", "setsid"})
    void aTimeoutKillsAnOrphanedGrandchildAndAStopWhatACommandLeftBehind(String launcher) throws Exception {
        LocalSandbox sandbox = sandbox(launcher);
        run(sandbox, "sleep 300 > /dev/null 2>&1 & echo $! > left.pid");
        TestBed.SessionPid left = readPid(sandbox, sandbox.directory().resolve("left.pid"));
        assertThat(TestBed.isDead(left)).as("a background process outlives its command").isFalse();

        CommandResult result = run(sandbox, "(sleep 300 & echo $! > orphan.pid); echo started; sleep 300",
                CommandOptions.builder().timeout(Duration.ofSeconds(1)).build());

        assertThat(result.exitCode()).isEqualTo(CommandResult.TIMEOUT_EXIT_CODE);
        assertThat(result.stdout()).isEqualTo("started\n");
        assertDiesSoon(readPid(sandbox, sandbox.directory().resolve("orphan.pid")));
        sandbox.stop();
        assertDiesSoon(left);
    }

    @ParameterizedTest
    @ValueSource(strings = {"fork server", "setsid"})
    void megabytesOfOutputKeepTheNewestBytesAndStreamEveryChunk(String launcher) {
        LocalSandbox sandbox = sandbox(launcher);
        StringBuilder streamed = new StringBuilder();

        CommandResult result = run(sandbox, "head -c 3000000 /dev/zero | tr '\\0' a; printf END",
                CommandOptions.builder().maxRetainedBytes(1000).onStdout(streamed::append).timeout(Duration.ofSeconds(60)).build());

        assertThat(result.stdoutTruncated()).isTrue();
        assertThat(result.stdout()).hasSize(1000).endsWith("aEND");
        assertThat(streamed.length()).isEqualTo(3_000_003);
    }

    @ParameterizedTest
    @ValueSource(strings = {"fork server", "setsid"})
    void aRunningCommandIsRecordedOnDiskForTheDeadHostReaperAndForgottenWhenItReturns(String launcher) throws Exception {
        LocalSandbox sandbox = sandbox(launcher);
        Path records = temp.resolve("sessions").resolve(RunningCommands.DIRECTORY).resolve(sandbox.id());
        CompletableFuture<CommandResult> running = CompletableFuture.supplyAsync(() ->
                run(sandbox, "echo $$ > shell.pid.tmp; mv shell.pid.tmp shell.pid; while [ ! -e go ]; do sleep 0.02; done"));

        // Renamed into place once written: a file that exists is never the empty one `>` creates first.
        awaitCondition(() -> Files.exists(sandbox.directory().resolve("shell.pid")));
        long shell = readPid(sandbox.directory().resolve("shell.pid"));
        awaitCondition(() -> Files.exists(records.resolve(Long.toString(shell))));
        assertThat(Files.readString(records.resolve(Long.toString(shell))))
                .contains("hostPid=" + ProcessHandle.current().pid(), "leaderStartStamp=" + HostProcess.startStampOf(shell).orElse(""));
        Files.writeString(sandbox.directory().resolve("go"), "");

        assertThat(running.get(60, TimeUnit.SECONDS).exitCode()).isZero();
        awaitCondition(() -> !Files.exists(records.resolve(Long.toString(shell))));
    }

    @ParameterizedTest
    @ValueSource(strings = {"fork server", "setsid"})
    void aFinishedCommandsRecordIsTheSpareOfTheNextAndAStopRemovesSparesAndTheirDirectory(String launcher) throws Exception {
        LocalSandbox sandbox = sandbox(launcher);
        Path records = temp.resolve("sessions").resolve(RunningCommands.DIRECTORY).resolve(sandbox.id());
        long first = runRecorded(sandbox, records, "first");
        Path spare = records.resolve(first + RecordSpares.SUFFIX);
        awaitCondition(() -> Files.exists(spare));

        long second = runRecorded(sandbox, records, "second");

        assertThat(spare).as("taken for the second command's record").doesNotExist();
        awaitCondition(() -> Files.exists(records.resolve(second + RecordSpares.SUFFIX)));
        sandbox.stop();
        assertThat(records).doesNotExist();
    }

    /** Runs a command until its record was written, then lets it finish; its shell's pid. */
    private static long runRecorded(LocalSandbox sandbox, Path records, String name) throws Exception {
        CompletableFuture<CommandResult> running = CompletableFuture.supplyAsync(() -> run(sandbox,
                "echo $$ > " + name + ".tmp; mv " + name + ".tmp " + name + ".pid; while [ ! -e " + name + ".go ]; do sleep 0.02; done"));
        awaitCondition(() -> Files.exists(sandbox.directory().resolve(name + ".pid")));
        long shell = readPid(sandbox.directory().resolve(name + ".pid"));
        awaitCondition(() -> Files.exists(records.resolve(Long.toString(shell))));
        assertThat(Files.readString(records.resolve(Long.toString(shell)))).contains("hostPid=" + ProcessHandle.current().pid());
        Files.writeString(sandbox.directory().resolve(name + ".go"), "");
        assertThat(running.get(60, TimeUnit.SECONDS).exitCode()).isZero();
        return shell;
    }

    /**
     * Run 7 of stress loop 24: a JVM on the other side of a wall-clock step sees a live host start
     * more than a second off its record. The start stamps decide, the host's and the shell's: a live
     * host's commands are left alone, and so is a stranger that took a recorded shell's pid after a reboot.
     */
    @ParameterizedTest
    @ValueSource(strings = {"fork server", "setsid"})
    void aRecordedHostIsJudgedByItsStartStampNotByItsWallClockStart(String launcher) throws Exception {
        HostProcess self = HostProcess.current();
        assumeTrue(!self.startStamp().isEmpty(), "a platform that stamps process starts (Linux)");
        LocalSandbox sandbox = sandbox(launcher);
        CompletableFuture<CommandResult> running = CompletableFuture.supplyAsync(() ->
                run(sandbox, "echo $$ > shell.pid.tmp; mv shell.pid.tmp shell.pid; while [ ! -e go ]; do sleep 0.02; done"));
        awaitCondition(() -> Files.exists(sandbox.directory().resolve("shell.pid")));
        long shell = readPid(sandbox.directory().resolve("shell.pid"));
        Path record = temp.resolve("sessions").resolve(RunningCommands.DIRECTORY).resolve(sandbox.id()).resolve(Long.toString(shell));
        String shellStamp = HostProcess.startStampOf(shell).orElseThrow();
        awaitCondition(() -> Files.exists(record));
        String text = Files.readString(record);
        assertThat(text).contains("hostStart=" + self.startMillis() + "\n", "hostStartStamp=" + self.startStamp() + "\n",
                "leaderStartStamp=" + shellStamp + "\n");

        Files.writeString(record, text.replace("hostStart=" + self.startMillis(), "hostStart=" + (self.startMillis() - 60_000)));
        new RunningCommands(sandbox.directory(), self, Runnable::run).reapOrphans();
        assertThat(ProcessHandle.of(shell).filter(ProcessHandle::isAlive)).as("the command of this live host").isPresent();

        String ofAnEarlierBoot = text.replace("hostStartStamp=" + self.startStamp(), "hostStartStamp=another-boot:1");
        Files.writeString(record, ofAnEarlierBoot.replace("leaderStartStamp=" + shellStamp, "leaderStartStamp=another-boot:2"));
        new RunningCommands(sandbox.directory(), self, Runnable::run).reapOrphans();
        assertThat(ProcessHandle.of(shell).filter(ProcessHandle::isAlive))
                .as("a process that took the pid of a command of an earlier boot is a stranger").isPresent();

        Files.createDirectories(record.getParent());
        Files.writeString(record, ofAnEarlierBoot);
        new RunningCommands(sandbox.directory(), self, Runnable::run).reapOrphans();
        assertThat(running.get(60, TimeUnit.SECONDS).exitCode()).as("the command of a host of an earlier boot, ended").isNotZero();
        assertDiesSoon(shell);
    }

    /** Waits for a condition, bounded so that a failing test ends. */
    private static void awaitCondition(BooleanSupplier condition) throws InterruptedException {
        for (int i = 0; i < 1000 && !condition.getAsBoolean(); i++) {
            Thread.sleep(10);
        }
        assertThat(condition.getAsBoolean()).as("condition reached within 10 s").isTrue();
    }

    @Test
    void aForkServerThatDiedIsReplacedByTheNextCommand() throws Exception {
        LocalSandbox sandbox = sandbox("fork server");
        assertThat(run(sandbox, "echo one").stdout()).isEqualTo("one\n");
        ProcessHandle server = forkServer().orElseThrow();

        server.destroyForcibly();
        server.onExit().get();

        assertThat(run(sandbox, "echo two").stdout()).isEqualTo("two\n");
        assertThat(forkServer()).get().isNotEqualTo(server);
    }

    @Test
    void aStartAbandonedByAnInterruptRunsNothingAndTheNextCommandRuns() throws Exception {
        LocalSandbox sandbox = sandbox("fork server");
        run(sandbox, "true");
        ProcessHandle server = forkServer().orElseThrow();

        Thread.currentThread().interrupt();
        try {
            assertThatThrownBy(() -> sandbox.executeCommand("touch ran", List.of(), CommandOptions.builder().build()))
                    .isInstanceOf(SandboxExecTransportException.class).hasMessageContaining("interrupted while starting the command");
        } finally {
            assertThat(Thread.interrupted()).as("the interrupt is kept for the caller").isTrue();
        }

        // The server forks in request order: once the next command ran, the abandoned one was forked.
        assertThat(run(sandbox, "echo next").stdout()).isEqualTo("next\n");
        // Its fork waited for FIFOs this JVM never opens: killed there, not left to its 60 s alarm.
        awaitCondition(() -> server.children().findAny().isEmpty());
        assertThat(sandbox.directory().resolve("ran")).doesNotExist();
    }

    @Test
    void aClosedProviderStopsItsForkServer() throws Exception {
        LocalSandbox sandbox = sandbox("fork server");
        run(sandbox, "true");
        ProcessHandle server = forkServer().orElseThrow();

        factories.get(0).close();

        assertThat(server.onExit().get().isAlive()).isFalse();
    }

    @Test
    void aForkServerOnTheHostMakesItsFifosUnderTheParentItWasGivenAndRemovesThemWhenClosed() throws Exception {
        LocalSandbox sandbox = sandbox("fork server");
        assertThat(run(sandbox, "echo out; echo err >&2").stdout()).isEqualTo("out\n");
        try (var made = Files.list(temp)) {
            assertThat(made.map(p -> p.getFileName().toString())).anyMatch(name -> name.startsWith("sandbox-factory-fork-"));
        }

        factories.get(0).close();

        try (var left = Files.list(temp)) {
            assertThat(left.map(p -> p.getFileName().toString())).noneMatch(name -> name.startsWith("sandbox-factory-fork-"));
        }
    }

    @Test
    void fifosGoToSharedMemoryOnlyWhenItIsAWritableDirectory() throws Exception {
        Path shared = Files.createDirectory(temp.resolve("shm"));

        assertThat(ForkServer.fifoParent(shared)).contains(shared);
        assertThat(ForkServer.fifoParent(temp.resolve("missing"))).isEmpty();
        assertThat(ForkServer.fifoParent(Files.writeString(temp.resolve("a-file"), ""))).isEmpty();
    }

    @Test
    void aForkServerWhoseStdinEndsRemovesItsFifoDirectoryAndExits() throws Exception {
        Path fifos = Files.createDirectory(temp.resolve("fifos"));
        Files.writeString(fifos.resolve("7.o"), "left by a command that never started");
        Process server = new ProcessBuilder("/usr/bin/perl", "-e", ForkServerProtocol.script(), fifos.toString()).start();

        server.getOutputStream().close();

        assertThat(server.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(server.exitValue()).isZero();
        assertThat(fifos).doesNotExist();
    }

    /** This JVM's own fork server: a perl child of it (other JVMs' servers are not its children). */
    private static Optional<ProcessHandle> forkServer() {
        return ProcessHandle.current().children().filter(ProcessHandle::isAlive)
                .filter(p -> p.info().command().map(c -> c.endsWith("/perl")).orElse(false)).findFirst();
    }
}
