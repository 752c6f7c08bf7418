package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.SandboxException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static io.sandboxfactory.provider.local.TestBed.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Commands through the real {@code /bin/sh}: exit codes, output, streaming, cwd, caps, quoting, parallelism. */
class LocalCommandExecutionTest {

    @TempDir
    Path temp;

    private TestBed bed;
    private LocalSandbox sandbox;

    @BeforeEach
    void open() {
        bed = new TestBed(temp);
        sandbox = bed.sandbox("commands");
    }

    @AfterEach
    void close() {
        bed.close();
    }

    @Test
    void reportsTheExitCodeOfTheShell() {
        assertThat(run(sandbox, "true").exitCode()).isZero();
        assertThat(run(sandbox, "true").success()).isTrue();
        CommandResult three = run(sandbox, "exit 3");
        assertThat(three.exitCode()).isEqualTo(3);
        assertThat(three.success()).isFalse();
        assertThat(three.timedOut()).isFalse();
    }

    @Test
    void aMissingCommandExitsWith127AndSaysSoOnStderr() {
        CommandResult result = run(sandbox, "no-such-command-sandbox-factory");

        assertThat(result.exitCode()).isEqualTo(127);
        assertThat(result.stderr()).contains("no-such-command-sandbox-factory").contains("not found");
        assertThat(result.stdout()).isEmpty();
    }

    @Test
    void keepsStdoutAndStderrApart() {
        CommandResult result = run(sandbox, "echo to-out; echo to-err >&2; echo more-out");

        assertThat(result.stdout()).isEqualTo("to-out\nmore-out\n");
        assertThat(result.stderr()).isEqualTo("to-err\n");
        assertThat(result.command()).isEqualTo("echo to-out; echo to-err >&2; echo more-out");
        assertThat(result.stdoutTruncated()).isFalse();
        assertThat(result.stderrTruncated()).isFalse();
    }

    @Test
    void streamsChunksInOrderWhileTheCommandStillRuns() throws Exception {
        List<String> outChunks = Collections.synchronizedList(new ArrayList<>());
        List<String> errChunks = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch firstOut = new CountDownLatch(1);
        CountDownLatch firstErr = new CountDownLatch(1);
        CommandOptions options = CommandOptions.builder()
                .timeout(Duration.ofSeconds(60))
                .onStdout(chunk -> {
                    outChunks.add(chunk);
                    if (String.join("", outChunks).contains("one\n")) {
                        firstOut.countDown();
                    }
                })
                .onStderr(chunk -> {
                    errChunks.add(chunk);
                    firstErr.countDown();
                })
                .build();
        // The command blocks until the test creates "go", so it is provably still running when
        // the first chunks arrive; the loop bound only keeps a broken test from hanging.
        String command = "echo one; echo uno >&2; i=0; while [ ! -f go ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done;"
                + " echo two; echo dos >&2; echo three";

        CompletableFuture<CommandResult> running = CompletableFuture.supplyAsync(() -> run(sandbox, command, options));

        assertThat(firstOut.await(30, TimeUnit.SECONDS)).as("first stdout chunk arrived").isTrue();
        assertThat(firstErr.await(30, TimeUnit.SECONDS)).as("first stderr chunk arrived").isTrue();
        assertThat(running).isNotDone();
        assertThat(String.join("", outChunks)).isEqualTo("one\n");
        Files.createFile(sandbox.directory().resolve("go"));

        CommandResult result = running.get(60, TimeUnit.SECONDS);
        assertThat(result.exitCode()).isZero();
        assertThat(String.join("", outChunks)).isEqualTo("one\ntwo\nthree\n").isEqualTo(result.stdout());
        assertThat(String.join("", errChunks)).isEqualTo("uno\ndos\n").isEqualTo(result.stderr());
    }

    @Test
    void quotesAwkwardArgumentsSoTheyArriveVerbatim() {
        CommandResult result = sandbox.executeCommand("printf '%s\\n'", List.of("a b", "it's", "$HOME", "ü", "*", "`id`", ""),
                CommandOptions.defaults());

        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout()).isEqualTo("a b\nit's\n$HOME\nü\n*\n`id`\n\n");
    }

    @Test
    void runsInTheSessionDirectoryByDefault() throws Exception {
        CommandResult result = run(sandbox, "pwd -P");

        assertThat(result.stdout().trim()).isEqualTo(sandbox.directory().toRealPath().toString());
        assertThat(sandbox.workingDirectory()).contains(sandbox.directory().toString());
    }

    @Test
    void resolvesARelativeCwdUnderTheSessionDirectory() throws Exception {
        run(sandbox, "mkdir -p sub/dir");

        CommandResult result = run(sandbox, "pwd -P", CommandOptions.builder().cwd("sub/dir").build());

        assertThat(result.stdout().trim()).isEqualTo(sandbox.directory().resolve("sub/dir").toRealPath().toString());
    }

    @Test
    void aMissingCwdIsAClearErrorAndRunsNothing() {
        assertThatThrownBy(() -> run(sandbox, "touch ran", CommandOptions.builder().cwd("nope").build()))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining(sandbox.directory().resolve("nope").toString())
                .hasMessageContaining("does not exist")
                .extracting(e -> ((SandboxException) e).code()).isEqualTo("CWD_MISSING");
        assertThat(sandbox.directory().resolve("ran")).doesNotExist();
        assertThat(sandbox.directory().resolve("nope/ran")).doesNotExist();
    }

    @Test
    void keepsTheNewestBytesOfAHugeStdoutAndSaysItTruncated() {
        List<String> chunks = Collections.synchronizedList(new ArrayList<>());
        CommandResult result = run(sandbox, "yes 0123456789 | head -c 1000000; printf END",
                CommandOptions.builder().maxRetainedBytes(1000).onStdout(chunks::add).timeout(Duration.ofSeconds(60)).build());

        String full = "0123456789\n".repeat(1_000_000 / 11 + 1).substring(0, 1_000_000) + "END";
        assertThat(result.exitCode()).isZero();
        assertThat(result.stdoutTruncated()).isTrue();
        assertThat(result.stdout()).hasSizeLessThanOrEqualTo(1000).isEqualTo(full.substring(full.length() - 1000));
        assertThat(result.stderrTruncated()).isFalse();
        assertThat(String.join("", chunks)).as("callbacks still see every byte").isEqualTo(full);
    }

    @Test
    void capsStderrTheSameWay() {
        CommandResult result = run(sandbox, "{ yes 0123456789 | head -c 1000000; printf END; } >&2; echo small",
                CommandOptions.builder().maxRetainedBytes(1000).timeout(Duration.ofSeconds(60)).build());

        String full = "0123456789\n".repeat(1_000_000 / 11 + 1).substring(0, 1_000_000) + "END";
        assertThat(result.stderrTruncated()).isTrue();
        assertThat(result.stderr()).hasSizeLessThanOrEqualTo(1000).isEqualTo(full.substring(full.length() - 1000));
        assertThat(result.stdout()).isEqualTo("small\n");
        assertThat(result.stdoutTruncated()).isFalse();
    }

    @Test
    void runsTenCommandsInParallelOnOneSandbox() throws Exception {
        run(sandbox, "true");
        // Each command waits until all ten have started: run one after another they would each
        // give up at the loop bound and print fewer than 10.
        String command = "touch started-$N; i=0; while [ $(ls started-* | wc -l) -lt 10 ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done;"
                + " echo \"$N saw $(ls started-* | wc -l)\"; echo \"err-$N\" >&2";
        ExecutorService pool = Executors.newFixedThreadPool(10);
        try {
            List<Future<CommandResult>> results = new ArrayList<>();
            for (int n = 0; n < 10; n++) {
                CommandOptions options = CommandOptions.builder().env("N", Integer.toString(n)).timeout(Duration.ofSeconds(120)).build();
                results.add(pool.submit(() -> run(sandbox, command, options)));
            }
            for (int n = 0; n < 10; n++) {
                CommandResult result = results.get(n).get(180, TimeUnit.SECONDS);
                assertThat(result.exitCode()).isZero();
                assertThat(result.stdout().trim()).isEqualTo(n + " saw 10");
                assertThat(result.stderr()).isEqualTo("err-" + n + "\n");
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aBackgroundChildHoldingTheOutputDoesNotKeepTheCommandWaiting() throws Exception {
        // The child keeps stdout open until the test releases it, after the command returned.
        CommandResult result = run(sandbox, "echo early; (i=0; while [ ! -f release ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i+1)); done;"
                + " echo late) & echo $! > child.pid");

        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout()).isEqualTo("early\n");
        TestBed.SessionPid child = TestBed.readPid(sandbox, sandbox.directory().resolve("child.pid"));
        assertThat(TestBed.isDead(child)).as("background child still runs after the command returned").isFalse();
        Files.createFile(sandbox.directory().resolve("release"));
        TestBed.assertDiesSoon(child);
    }

    @Test
    void rejectsAnInvalidEnvironmentVariableNameBeforeRunning() {
        assertThatThrownBy(() -> run(sandbox, "touch ran", CommandOptions.builder().env("A=B", "x").build()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'A=B'")
                .hasMessageContaining("'='");
        assertThat(sandbox.directory().resolve("ran")).doesNotExist();
    }

    @Test
    void decodesUtf8SplitAcrossReads() {
        CommandResult result = run(sandbox, "printf 'ü%.0s' $(seq 1 20000)");

        assertThat(result.stdout()).isEqualTo("ü".repeat(20000));
    }
}
