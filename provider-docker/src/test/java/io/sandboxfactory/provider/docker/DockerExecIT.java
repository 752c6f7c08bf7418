package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.SandboxException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Commands in a real container: exit codes, streams, environment, working directory, timeouts, output caps. */
@ExtendWith(RequiresDockerEngine.class)
class DockerExecIT {

    private DockerFixture fixture;
    private DockerSandbox sandbox;

    @BeforeEach
    void startSandbox() {
        fixture = new DockerFixture();
        DockerFactorySandbox factory = fixture.factory(fixture.owner(),
                b -> b.env(Map.of("BASE_ONLY", "base", "BASE_AND_OVERLAY", "base", "EVERYWHERE", "base")));
        sandbox = factory.create(FactorySandboxContext.of(fixture.sessionId("exec")));
        sandbox.start();
    }

    @AfterEach
    void cleanUp() {
        fixture.close();
    }

    private CommandResult run(String command) {
        return sandbox.executeCommand(command);
    }

    @Test
    void reportsExitCodes() {
        assertThat(run("true").exitCode()).isZero();
        assertThat(run("exit 3").exitCode()).isEqualTo(3);
        assertThat(run("exit 255").exitCode()).isEqualTo(255);
        assertThat(run("kill -KILL $$").exitCode()).isEqualTo(137);
        CommandResult missing = run("no-such-program-here");
        assertThat(missing.exitCode()).isEqualTo(127);
        assertThat(missing.success()).isFalse();
        assertThat(missing.stderr()).contains("no-such-program-here");
    }

    @Test
    void keepsStdoutAndStderrApart() {
        CommandResult result = run("echo to-out; echo to-err >&2; echo more-out");
        assertThat(result.stdout()).isEqualTo("to-out\nmore-out\n");
        assertThat(result.stderr()).isEqualTo("to-err\n");
        assertThat(result.timedOut()).isFalse();
        assertThat(result.command()).isEqualTo("echo to-out; echo to-err >&2; echo more-out");
    }

    @Test
    void streamsChunksInTheOrderTheyWereWritten() {
        List<String> events = new ArrayList<>();
        // Each line is written once the line before reached its callback, which opens the line's
        // gate with a command of its own: the order written is the order delivered, by cause.
        AtomicInteger lines = new AtomicInteger();
        Consumer<String> openGates = chunk -> chunk.chars().filter(c -> c == '\n').forEach(c -> {
            int line = lines.incrementAndGet();
            if (line < 4) {
                run("echo go >/tmp/gate" + line);
            }
        });
        CommandOptions options = CommandOptions.builder()
                .onStdout(chunk -> record(events, "out", chunk, openGates))
                .onStderr(chunk -> record(events, "err", chunk, openGates))
                .timeout(Duration.ofSeconds(60))
                .build();
        CommandResult result = sandbox.executeCommand("mkfifo /tmp/gate1 /tmp/gate2 /tmp/gate3; echo one;"
                + " read go </tmp/gate1; echo two >&2; read go </tmp/gate2; echo three; read go </tmp/gate3; echo four >&2",
                List.of(), options);
        assertThat(result.exitCode()).isZero();
        assertThat(events).containsExactly("out:one\n", "err:two\n", "out:three\n", "err:four\n");
    }

    private static void record(List<String> events, String stream, String chunk, Consumer<String> then) {
        synchronized (events) {
            int last = events.size() - 1;
            if (last >= 0 && events.get(last).startsWith(stream + ":")) {
                events.set(last, events.get(last) + chunk);
            } else {
                events.add(stream + ":" + chunk);
            }
        }
        then.accept(chunk);
    }

    @Test
    void perCallEnvBeatsOverlayWhichBeatsProviderEnv() {
        sandbox.setEnv(env -> {
            env.put("BASE_AND_OVERLAY", "overlay");
            env.put("EVERYWHERE", "overlay");
            return env;
        });
        CommandResult result = sandbox.executeCommand("echo \"$BASE_ONLY $BASE_AND_OVERLAY $EVERYWHERE $HOME\"", List.of(),
                CommandOptions.builder().env("EVERYWHERE", "call").build());
        // HOME comes from the container's own environment, the bottom layer: /tmp for the non-root user
        // (the image says /root, which is not theirs).
        assertThat(result.stdout()).isEqualTo("base overlay call /tmp\n");
    }

    @Test
    void runsInTheWorkingDirectoryOrTheRequestedOne() {
        assertThat(sandbox.workingDirectory()).contains(DockerProviderConfig.DEFAULT_WORKING_DIRECTORY);
        assertThat(run("pwd").stdout()).isEqualTo("/workspace\n");
        CommandResult inTmp = sandbox.executeCommand("pwd", List.of(), CommandOptions.builder().cwd("/tmp").build());
        assertThat(inTmp.stdout()).isEqualTo("/tmp\n");
        assertThat(run("mkdir -p sub/dir").exitCode()).isZero();
        CommandResult relative = sandbox.executeCommand("pwd", List.of(), CommandOptions.builder().cwd("sub/dir").build());
        assertThat(relative.stdout()).isEqualTo("/workspace/sub/dir\n");
    }

    @Test
    void aMissingWorkingDirectoryFailsBeforeTheCommandRuns() {
        List<String> seen = new ArrayList<>();
        CommandOptions options = CommandOptions.builder().cwd("/no/such/dir")
                .onStderr(seen::add).onStdout(seen::add).build();
        assertThatThrownBy(() -> sandbox.executeCommand("touch /tmp/ran", List.of(), options))
                .isInstanceOf(SandboxException.class)
                .hasMessage("Working directory /no/such/dir does not exist in sandbox '" + sandbox.id() + "'.")
                .satisfies(e -> assertThat(((SandboxException) e).code()).isEqualTo("CWD_MISSING"));
        assertThat(seen).isEmpty();
        assertThat(run("test -e /tmp/ran").exitCode()).isEqualTo(1);
    }

    @Test
    void quotesArgumentsSoTheyArriveVerbatim() {
        CommandResult result = sandbox.executeCommand("printf '%s|'", List.of("a b", "it's", "$HOME", "*", ""));
        assertThat(result.stdout()).isEqualTo("a b|it's|$HOME|*||");
    }

    @Test
    void timeoutKillsTheCommandAndEveryChildInsideTheContainer() {
        // 4711: a background child in the group; 4712: a child that scrubbed its environment;
        // 4713: a child in its own session (escaped the group); 4714: the foreground command.
        CommandResult result = sandbox.executeCommand(
                "sleep 4711 & env -i /bin/sleep 4712 & setsid sleep 4713 & sleep 4714; echo never",
                List.of(), CommandOptions.builder().timeout(Duration.ofSeconds(2)).build());

        assertThat(result.timedOut()).isTrue();
        assertThat(result.exitCode()).isEqualTo(CommandResult.TIMEOUT_EXIT_CODE);
        assertThat(result.stdout()).doesNotContain("never");
        String processes = run("ps -o pid,args").stdout();
        // "sleep 47xx", not the bare numbers: random tokens on other command lines may hold them.
        assertThat(processes).contains("ps -o pid,args").doesNotContain("sleep 4711", "sleep 4712", "sleep 4713", "sleep 4714");
    }

    @Test
    void capsRetainedOutputButStreamsAllOfIt() {
        AtomicLong streamed = new AtomicLong();
        CommandResult result = sandbox.executeCommand("yes 0123456789 | head -c 1000000; echo small >&2", List.of(),
                CommandOptions.builder().maxRetainedBytes(1000).onStdout(chunk -> streamed.addAndGet(chunk.length())).build());
        assertThat(result.exitCode()).isZero();
        assertThat(streamed.get()).isEqualTo(1_000_000);
        assertThat(result.stdout()).hasSize(1000);
        assertThat(result.stdoutTruncated()).isTrue();
        assertThat(result.stderr()).isEqualTo("small\n");
        assertThat(result.stderrTruncated()).isFalse();
    }

    @Test
    void runsConcurrentCommandsIndependently() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(6);
        try {
            List<Future<CommandResult>> results = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                int n = i;
                results.add(pool.submit(() -> sandbox.executeCommand("sleep 0.2; echo " + n + "; exit " + n)));
            }
            for (int i = 0; i < 6; i++) {
                CommandResult result = results.get(i).get();
                assertThat(result.stdout()).isEqualTo(i + "\n");
                assertThat(result.exitCode()).isEqualTo(i);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void leavesNoPidFilesBehind() {
        run("true");
        run("exit 4");
        // Only the listing command's own pid file is there while it runs.
        assertThat(run("ls -a /tmp | grep -c '^[.]sf-exec-'").stdout()).isEqualTo("1\n");
    }
}
