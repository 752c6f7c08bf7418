package io.sandboxfactory.api.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link HostCommandRunner}: the shell, environment, working directory, timeout, streaming, truncation and interrupt. */
class HostCommandRunnerTest {

    private static final Map<String, String> PATH = Map.of("PATH", "/usr/local/bin:/usr/bin:/bin");

    @TempDir
    Path directory;

    private final HostCommandRunner runner = new HostCommandRunner("sbx-1");

    @Test
    void runsTheLineWithShInTheDirectoryAndKeepsBothStreams() {
        CommandResult result = runner.run(request("pwd; echo oops >&2; exit 3"), directory, PATH);

        assertThat(result.exitCode()).isEqualTo(3);
        assertThat(result.stdout()).isEqualTo(directory + "\n");
        assertThat(result.stderr()).isEqualTo("oops\n");
        assertThat(result.timedOut()).isFalse();
        assertThat(result.command()).isEqualTo("pwd; echo oops >&2; exit 3");
    }

    @Test
    void theBaseEnvironmentGoesUnderTheRequestsAndNothingIsInherited() {
        CommandRequest request = new CommandRequest("echo \"$A $B ${HOME-unset}\"", Map.of("B", "call"), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), 1024);

        CommandResult result = runner.run(request, directory, Map.of("PATH", "/usr/bin:/bin", "A", "base", "B", "base"));

        assertThat(result.stdout()).isEqualTo("base call unset\n");
    }

    @Test
    void aRelativeWorkingDirectoryIsResolvedAgainstTheSandboxDirectory() throws IOException {
        Files.createDirectory(directory.resolve("sub"));

        CommandResult result = runner.run(request("pwd", Optional.of("sub"), Optional.empty()), directory, PATH);

        assertThat(result.stdout()).isEqualTo(directory.resolve("sub") + "\n");
    }

    @Test
    void aMissingWorkingDirectoryIsCwdMissingAndNothingRuns() {
        assertThatThrownBy(() -> runner.run(request("touch ran", Optional.of("gone"), Optional.empty()), directory, PATH))
                .isInstanceOfSatisfying(SandboxException.class, e -> assertThat(e.code()).isEqualTo("CWD_MISSING"))
                .hasMessage(CommandRequest.cwdMissing(directory.resolve("gone").toString(), "sbx-1").getMessage());
        assertThat(directory.resolve("ran")).doesNotExist();
    }

    @Test
    void aMissingSandboxDirectoryIsADestroyedSandbox() {
        assertThatThrownBy(() -> runner.run(request("true"), directory.resolve("removed"), PATH))
                .isInstanceOf(SandboxDestroyedException.class)
                .hasMessageContaining("sbx-1");
    }

    @Test
    void aTimeoutKillsTheShellItsChildrenAndTheirChildren() throws Exception {
        Path pid = directory.resolve("grandchild.pid");
        // The inner shell is the command's child; its sleep is the command's grandchild.
        String line = "sh -c 'sleep 300 & echo $! > grandchild.pid; wait'";

        // The timeout must fire after the grandchild exists: a busy host may not have started it in
        // time, so the run is repeated with twice the timeout until the grandchild wrote its pid.
        CommandResult result = null;
        for (Duration timeout = Duration.ofMillis(500); !Files.exists(pid) && timeout.toMinutes() < 2; timeout = timeout.multipliedBy(2)) {
            result = runner.run(request(line, Optional.empty(), Optional.of(timeout)), directory, PATH);
        }

        assertThat(pid).exists();
        assertThat(result.exitCode()).isEqualTo(CommandResult.TIMEOUT_EXIT_CODE);
        assertThat(result.timedOut()).isTrue();
        assertGone(Long.parseLong(Files.readString(pid).strip()));
    }

    @Test
    void outputIsStreamedWhileTheCommandRuns() {
        // The command waits for a file that only the stdout callback creates: it ends only if the callback saw "ready" while it ran.
        Path go = directory.resolve("go");
        List<String> chunks = new CopyOnWriteArrayList<>();
        Consumer<String> onStdout = chunk -> {
            chunks.add(chunk);
            if (chunk.contains("ready")) {
                touch(go);
            }
        };
        CommandRequest request = new CommandRequest("echo ready; while [ ! -e go ]; do sleep 0.05; done; echo done", Map.of(),
                Optional.empty(), Optional.of(Duration.ofSeconds(30)), Optional.of(onStdout), Optional.empty(), 1024);

        CommandResult result = runner.run(request, directory, PATH);

        assertThat(result.timedOut()).isFalse();
        assertThat(result.stdout()).isEqualTo("ready\ndone\n");
        assertThat(String.join("", chunks)).isEqualTo("ready\ndone\n");
    }

    @Test
    void onlyTheNewestOutputIsRetainedAndTheTruncationIsReported() {
        CommandRequest request = new CommandRequest("head -c 5000 /dev/zero | tr '\\0' x; printf END", Map.of(), Optional.empty(),
                Optional.empty(), Optional.empty(), Optional.empty(), 100);

        CommandResult result = runner.run(request, directory, PATH);

        assertThat(result.stdout()).hasSize(100).endsWith("xEND");
        assertThat(result.stdoutTruncated()).isTrue();
        assertThat(result.stderrTruncated()).isFalse();
    }

    @Test
    void anInterruptedCallerKillsTheCommandAndKeepsItsInterruptStatus() throws Exception {
        Path pid = directory.resolve("child.pid");
        CompletableFuture<Throwable> failure = new CompletableFuture<>();
        CompletableFuture<Boolean> stillInterrupted = new CompletableFuture<>();
        Thread caller = new Thread(() -> {
            try {
                runner.run(request("sleep 300 & echo $! > child.pid; wait"), directory, PATH);
                failure.complete(null);
            } catch (RuntimeException e) {
                failure.complete(e);
            }
            stillInterrupted.complete(Thread.currentThread().isInterrupted());
        });
        caller.start();
        assertThat(Polling.until(Duration.ofSeconds(10), Duration.ofMillis(20), () -> Files.exists(pid) && size(pid) > 0)).isTrue();

        caller.interrupt();

        assertThat(failure.get(10, TimeUnit.SECONDS)).isInstanceOfSatisfying(SandboxException.class,
                e -> assertThat(e.code()).isEqualTo("INTERRUPTED"));
        assertThat(stillInterrupted.get(10, TimeUnit.SECONDS)).isTrue();
        assertGone(Long.parseLong(Files.readString(pid).strip()));
    }

    @Test
    void killAllEndsTheRunningCommandsWithTheirChildren() throws Exception {
        Path pid = directory.resolve("child.pid");
        CompletableFuture<CommandResult> result = CompletableFuture.supplyAsync(
                () -> runner.run(request("sleep 300 & echo $! > child.pid; wait"), directory, PATH));
        assertThat(Polling.until(Duration.ofSeconds(10), Duration.ofMillis(20), () -> Files.exists(pid) && size(pid) > 0)).isTrue();

        runner.killAll();

        assertThat(result.get(10, TimeUnit.SECONDS).exitCode()).isEqualTo(128 + 9);
        assertGone(Long.parseLong(Files.readString(pid).strip()));
    }

    @Test
    void aChildLeftInTheBackgroundHoldingThePipesDoesNotKeepTheResultWaiting() throws IOException {
        long started = System.nanoTime();

        CommandResult result = runner.run(request("sleep 60 & echo $! > bg.pid; echo started"), directory, PATH);

        Duration took = Duration.ofNanos(System.nanoTime() - started);
        long child = Long.parseLong(Files.readString(directory.resolve("bg.pid")).strip());
        assertThat(ProcessHandle.of(child).map(ProcessHandle::isAlive)).as("the background child keeps running").contains(true);
        ProcessHandle.of(child).ifPresent(ProcessHandle::destroyForcibly);
        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout()).isEqualTo("started\n");
        assertThat(took).isLessThan(HostCommandRunner.OUTPUT_GRACE.plusSeconds(10));
    }

    /** Gone, or a zombie its new parent has not reaped yet: killed either way. */
    private static void assertGone(long pid) {
        assertThat(Polling.until(Duration.ofSeconds(10), Duration.ofMillis(20), () -> {
            try {
                String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
                return stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
            } catch (IOException e) {
                return true;
            }
        })).as("process %d is gone", pid).isTrue();
    }

    private static CommandRequest request(String line) {
        return request(line, Optional.empty(), Optional.empty());
    }

    private static CommandRequest request(String line, Optional<String> cwd, Optional<Duration> timeout) {
        return new CommandRequest(line, Map.of(), cwd, timeout, Optional.empty(), Optional.empty(), 64 * 1024);
    }

    private static long size(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            return 0;
        }
    }

    private static void touch(Path file) {
        try {
            Files.createFile(file);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
