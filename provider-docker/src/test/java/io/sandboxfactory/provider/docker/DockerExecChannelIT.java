package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.provider.support.CommandDefaults;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The command channel in a real container: what only a long-lived server could get wrong (output
 * framing, leftovers of one command reaching the next, stdin, environment leaks, a busy channel),
 * each compared with the exec-per-command path where the answer is not obvious.
 */
@ExtendWith(RequiresDockerEngine.class)
class DockerExecChannelIT {

    /**
     * Counts channel servers: processes running the server script whose parent does not. A helper
     * the server forks (a copy of the output, the command's {@code setsid}) carries the server's
     * command line until it execs, and one forked for this very command may not have yet; it is
     * part of that server, not another one. A second server is an exec of its own, so its parent is
     * never a server and it counts. A process that exited has an empty command line. The brackets
     * keep the greps from matching themselves.
     */
    private static final String COUNT_SERVERS = "for f in $(grep -l 'sandbox-factory-[c]hannel' /proc/[0-9]*/cmdline 2>/dev/null);"
            + " do s=$(cat ${f%/cmdline}/stat 2>/dev/null) || continue; set -- ${s##*) };"
            + " grep -qs 'sandbox-factory-[c]hannel' /proc/$2/cmdline || echo ${f%/cmdline}; done | wc -l";

    /**
     * Prints {@code channel} when the command runs under a channel server, else {@code exec}: the
     * wrapper ({@code $PPID}) is a child of the server or of no process in the container.
     */
    private static final String WHERE = "s=$(cat /proc/$PPID/stat); set -- ${s##*) };"
            + " if grep -qs 'sandbox-factory-[c]hannel' /proc/$2/cmdline; then echo channel; else echo exec; fi";

    /** How long a test waits for a condition before it fails; never reached when the provider works. */
    private static final Duration PATIENCE = Duration.ofSeconds(60);

    private DockerFixture fixture;
    private DockerSandbox channel;
    private DockerSandbox execPath;

    @BeforeEach
    void startSandboxes() {
        fixture = new DockerFixture();
        Map<String, String> base = Map.of("BASE_VAR", "base");
        channel = fixture.factory(fixture.owner(), b -> b.env(base).execChannel(true))
                .create(FactorySandboxContext.of(fixture.sessionId("channel")));
        execPath = fixture.factory(fixture.owner(), b -> b.env(base).execChannel(false))
                .create(FactorySandboxContext.of(fixture.sessionId("execpath")));
        channel.start();
        execPath.start();
    }

    @AfterEach
    void cleanUp() {
        fixture.close();
    }

    @Test
    void oneServerCarriesEveryCommandAndTheExecPathHasNone() {
        for (int i = 0; i < 3; i++) {
            assertThat(channel.executeCommand("echo " + i).stdout()).isEqualTo(i + "\n");
        }
        assertThat(channel.executeCommand(COUNT_SERVERS).stdout().trim()).isEqualTo("1");
        assertThat(execPath.executeCommand(COUNT_SERVERS).stdout().trim()).isEqualTo("0");
    }

    @Test
    void theServerCountSeesASecondServer() throws Exception {
        assertThat(channel.executeCommand(COUNT_SERVERS).stdout().trim()).isEqualTo("1");
        // A second server beside the sandbox's own, as a leaked one would be; open returns once it is ready.
        String containerId = channel.sandboxId().orElseThrow();
        try (ExecChannel second = ExecChannel.open(fixture.engine(), containerId, PATIENCE).orElseThrow()) {
            assertThat(channel.executeCommand(COUNT_SERVERS).stdout().trim()).isEqualTo("2");
        }
    }

    @Test
    void manyQuickCommandsInARowEachGetTheirOwnResult() {
        // Quick commands finish while the previous command's helpers are still being reaped: the
        // server must not lose a request, an exit status or an open of its output to a signal.
        for (int i = 0; i < 100; i++) {
            CommandResult result = channel.executeCommand(i % 2 == 0 ? "echo " + i : "mkdir -p d" + i + " && exit " + (i % 7));
            assertThat(result.exitCode()).as("command %d", i).isEqualTo(i % 2 == 0 ? 0 : i % 7);
            assertThat(result.stdout()).as("command %d", i).isEqualTo(i % 2 == 0 ? i + "\n" : "");
        }
    }

    @Test
    void outputWithoutTrailingNewlineEndsWhereTheCommandStopped() {
        CommandResult result = channel.executeCommand("printf out; printf err >&2");
        assertThat(result.stdout()).isEqualTo("out");
        assertThat(result.stderr()).isEqualTo("err");
        assertThat(channel.executeCommand("printf ''").stdout()).isEmpty();
        assertThat(channel.executeCommand("echo next").stdout()).isEqualTo("next\n");
    }

    @Test
    void binaryOutputAndFakeTerminatorsArriveAsTheExecPathDeliversThem() {
        // NUL, the terminator's prefix with a wrong nonce, a bare prefix at the very end, invalid UTF-8.
        String command = "printf 'a\\000b\\001\\002sf-end:0123\\n\\r\\377\\376z'; printf 'e\\000\\001\\002sf-end:' >&2;"
                + " printf '\\001\\002'";
        CommandResult viaChannel = channel.executeCommand(command);
        CommandResult viaExec = execPath.executeCommand(command);
        assertThat(viaChannel.stdout()).isEqualTo("a\0b\u0001\u0002sf-end:0123\n\r\uFFFD\uFFFDz\u0001\u0002");
        assertThat(viaChannel.stderr()).isEqualTo("e\0\u0001\u0002sf-end:");
        assertThat(viaChannel.stdout()).isEqualTo(viaExec.stdout());
        assertThat(viaChannel.stderr()).isEqualTo(viaExec.stderr());
        assertThat(channel.executeCommand("echo clean").stdout()).isEqualTo("clean\n");
    }

    @Test
    void aMegabyteOfOutputArrivesWhole() {
        CommandResult result = channel.executeCommand("yes 0123456789abcde | head -c 1048576; echo tail >&2", List.of(),
                CommandOptions.builder().maxRetainedBytes(2_000_000).build());
        assertThat(result.exitCode()).isZero();
        assertThat(result.stdout()).hasSize(1_048_576).isEqualTo("0123456789abcde\n".repeat(65_536));
        assertThat(result.stderr()).isEqualTo("tail\n");
    }

    @Test
    void aBackgroundChildHoldingTheOutputCannotWriteIntoTheNextCommand() {
        CommandOptions patient = CommandOptions.builder().timeout(PATIENCE).build();
        // The child writes once the second command opens its gate, and tells it when it has written
        // (ignoring SIGPIPE, as its output goes nowhere), so it writes while the second command runs.
        CommandResult first = channel.executeCommand("mkfifo /tmp/late-gate /tmp/late-done; (trap '' PIPE;"
                + " read go </tmp/late-gate; echo late-out; echo late-err >&2; echo wrote >/tmp/late-done) & echo now",
                List.of(), patient);
        assertThat(first.timedOut()).isFalse();
        assertThat(first.stdout()).isEqualTo("now\n");
        assertThat(first.stderr()).isEmpty();
        CommandResult second = channel.executeCommand("echo go >/tmp/late-gate; read wrote </tmp/late-done; echo second",
                List.of(), patient);
        assertThat(second.timedOut()).isFalse();
        assertThat(second.stdout()).isEqualTo("second\n");
        assertThat(second.stderr()).isEmpty();
        assertThat(channel.executeCommand("echo third").stdout()).isEqualTo("third\n");
    }

    @Test
    void aCommandReadingStdinGetsEndOfFile() {
        CommandResult result = channel.executeCommand("cat; read line; echo \"status $?\"", List.of(),
                CommandOptions.builder().timeout(Duration.ofSeconds(20)).build());
        assertThat(result.timedOut()).isFalse();
        assertThat(result.stdout()).isEqualTo("status 1\n");
        assertThat(channel.executeCommand("echo still-served").stdout()).isEqualTo("still-served\n");
    }

    @Test
    void eachCommandSeesExactlyItsOwnEnvironment() {
        for (int i = 0; i < 20; i++) {
            CommandResult result = channel.executeCommand("export LEAK_$((" + i + "))=1; env | grep -e '^VAR_' -e '^LEAK_'"
                    + " -e '^BASE_VAR=' -e '^_sf_' | sort", List.of(), CommandOptions.builder().env("VAR_" + i, "v" + i).build());
            assertThat(result.stdout()).isEqualTo("BASE_VAR=base\nLEAK_" + i + "=1\nVAR_" + i + "=v" + i + "\n");
        }
        String command = "env | grep -v -e '^SANDBOX_FACTORY_EXEC=' -e '^SANDBOX_FACTORY_CHANNEL=' -e '^HOSTNAME=' | sort";
        assertThat(channel.executeCommand(command).stdout()).isEqualTo(execPath.executeCommand(command).stdout());
    }

    @Test
    void valuesWithQuotesNewlinesAndShellSyntaxArriveVerbatim() {
        String value = "it's \"quoted\"\n$HOME `date` \\ \r\t end'";
        CommandResult result = channel.executeCommand("printf '%s' \"$TRICKY\"", List.of(),
                CommandOptions.builder().env("TRICKY", value).cwd("/tmp").build());
        assertThat(result.stdout()).isEqualTo(value);
        assertThat(channel.executeCommand("printf '%s|'", List.of("a\nb", "'", "\"", "$(id)")).stdout())
                .isEqualTo("a\nb|'|\"|$(id)|");
    }

    @Test
    void commandsArrivingWhileOneRunsUseTheirOwnExecs() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            // The slow command holds the channel until the quick ones are done: it waits on a FIFO
            // that only the test opens, after them. The quick ones start once it runs.
            CountDownLatch running = new CountDownLatch(1);
            Future<CommandResult> slow = pool.submit(() -> channel.executeCommand("mkfifo /tmp/gate && echo started"
                    + " && read go </tmp/gate; echo slow; " + WHERE + "; exit 7", List.of(),
                    CommandOptions.builder().onStdout(chunk -> running.countDown()).build()));
            assertThat(running.await(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            List<Future<CommandResult>> quick = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                int n = i;
                quick.add(pool.submit(() -> channel.executeCommand("echo quick-" + n + "; " + WHERE + "; exit " + n)));
            }
            for (int i = 0; i < 3; i++) {
                CommandResult result = quick.get(i).get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
                assertThat(result.stdout()).isEqualTo("quick-" + i + "\nexec\n");
                assertThat(result.exitCode()).isEqualTo(i);
            }
            assertThat(slow).isNotDone();
            assertThat(execPathOf(channel, "echo go >/tmp/gate").exitCode()).isZero();
            CommandResult slowResult = slow.get(PATIENCE.toSeconds(), TimeUnit.SECONDS);
            assertThat(slowResult.stdout()).isEqualTo("started\nslow\nchannel\n");
            assertThat(slowResult.exitCode()).isEqualTo(7);
        } finally {
            pool.shutdownNow();
        }
        assertThat(channel.executeCommand(COUNT_SERVERS).stdout().trim()).isEqualTo("1");
    }

    @Test
    void aCommandStartedFromAnOutputCallbackRunsBesideTheBusyChannel() {
        List<String> nested = new ArrayList<>();
        CommandResult outer = channel.executeCommand("echo outer", List.of(), CommandOptions.builder()
                .onStdout(chunk -> nested.add(channel.executeCommand("echo inner").stdout())).build());
        assertThat(outer.stdout()).isEqualTo("outer\n");
        assertThat(nested).containsExactly("inner\n");
    }

    @Test
    void aTimedOutCommandIsKilledAndTheChannelServesTheNextOne() {
        CommandResult result = channel.executeCommand("sleep 4711 & sleep 4714; echo never", List.of(),
                CommandOptions.builder().timeout(Duration.ofSeconds(1)).build());
        assertThat(result.timedOut()).isTrue();
        assertThat(result.exitCode()).isEqualTo(CommandResult.TIMEOUT_EXIT_CODE);
        assertThat(channel.executeCommand("ps -o args").stdout()).doesNotContain("sleep 4711", "sleep 4714");
        assertThat(channel.executeCommand(COUNT_SERVERS).stdout().trim()).isEqualTo("1");
    }

    @Test
    void aKilledServerIsReplacedByTheNextCommand() {
        assertThat(channel.executeCommand("echo first").stdout()).isEqualTo("first\n");
        // Kill the server from outside the channel; the command doing it runs as an exec of its own.
        CommandResult kill = execPathOf(channel, "for f in $(grep -l 'sandbox-factory-[c]hannel' /proc/[0-9]*/cmdline);"
                + " do p=${f#/proc/}; kill -9 ${p%/cmdline}; done");
        assertThat(kill.exitCode()).isZero();
        assertThat(channel.executeCommand("echo again").stdout()).isEqualTo("again\n");
        assertThat(channel.executeCommand(COUNT_SERVERS).stdout().trim()).isEqualTo("1");
    }

    @Test
    void aCommandSentToAServerThatDiedUnseenRunsAsAnExec() {
        Assumptions.assumeFalse("runsc".equals(DockerFixture.runtime()), 
                "under runsc the test's trick (a helper reading the server's stdin through /proc/PID/fd/0) does not take the request");
        assertThat(channel.executeCommand("echo first").stdout()).isEqualTo("first\n");
        // Stop the server, and leave a helper that takes the next request off the server's stdin
        // and then kills it: that request leaves this process while the server still looks alive,
        // and the server never reads it.
        // The server is the oldest process of that name: its watcher, a subshell it forked, carries the
        // same command line (and the glob lists /proc in text order, not by pid).
        CommandResult stop = execPathOf(channel, "m=; for f in $(grep -l 'sandbox-factory-[c]hannel' /proc/[0-9]*/cmdline);"
                + " do p=${f#/proc/}; p=${p%/cmdline}; if [ -z \"$m\" ] || [ \"$p\" -lt \"$m\" ]; then m=$p; fi; done; p=$m;"
                + " kill -STOP $p &&"
                + " { head -n 1 </proc/$p/fd/0; kill -9 $p; } >/dev/null 2>&1 &");
        assertThat(stop.exitCode()).isZero();
        CommandResult again = channel.executeCommand("echo again; " + WHERE, List.of(),
                CommandOptions.builder().timeout(PATIENCE).build());
        assertThat(again.stdout()).isEqualTo("again\nexec\n");
        assertThat(channel.executeCommand(WHERE).stdout()).as("the next command opens a new server").isEqualTo("channel\n");
        assertThat(channel.executeCommand(COUNT_SERVERS).stdout().trim()).isEqualTo("1");
    }

    @Test
    void aContainerWhereTheServerCannotStartRunsEveryCommandAsItsOwnExec() {
        Assumptions.assumeFalse("runsc".equals(DockerFixture.runtime()), 
                "under runsc /tmp cannot be replaced by a file (gVisor mounts its own /tmp), the test's way to break the server");
        // The server keeps its FIFOs under /tmp; with /tmp a plain file it exits before saying it is ready.
        // Only root may replace /tmp: this sandbox runs as root (with no capabilities, as every sandbox).
        DockerSandbox channel = fixture.factory(fixture.owner(), b -> b.user("0").execChannel(true))
                .create(FactorySandboxContext.of(fixture.sessionId("root")));
        channel.start();
        assertThat(execPathOf(channel, "rm -rf /tmp && touch /tmp").exitCode()).isZero();
        for (int i = 0; i < 3; i++) {
            assertThat(channel.executeCommand("echo works-" + i).stdout()).isEqualTo("works-" + i + "\n");
        }
        assertThat(channel.executeCommand(COUNT_SERVERS).stdout().trim()).isEqualTo("0");
    }

    /** Runs {@code command} in {@code sandbox}'s container as an exec of its own, beside the channel. */
    private static CommandResult execPathOf(DockerSandbox sandbox, String command) {
        try (DockerConnection connection = new DockerConnection(DockerProviderConfig.defaults())) {
            DockerCommandRunner runner = new DockerCommandRunner(connection, new CommandDefaults(sandbox.id(), Map.of(), "/", HostProcess.current()));
            return runner.run(sandbox.sandboxId().orElseThrow(), new CommandRequest(command, Map.of(), Optional.empty(),
                    Optional.empty(), Optional.empty(), Optional.empty(), 1_000_000));
        }
    }
}
