package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static io.sandboxfactory.provider.local.TestBed.assertDiesSoon;
import static io.sandboxfactory.provider.local.TestBed.readPid;
import static io.sandboxfactory.provider.local.TestBed.run;
import static org.assertj.core.api.Assertions.assertThat;

/** A timeout kills the command's whole process group and reports exit 124. */
class LocalTimeoutTest {

    @TempDir
    Path temp;

    private TestBed bed;
    private LocalSandbox sandbox;

    @BeforeEach
    void open() {
        bed = new TestBed(temp);
        sandbox = bed.sandbox("timeouts");
    }

    @AfterEach
    void close() {
        bed.close();
    }

    @Test
    void aTimeoutKillsTheShellItsChildAndAnOrphanedGrandchild() throws Exception {
        // child.pid: a direct child of the shell. orphan.pid: its parent subshell exits at once, so
        // it leaves the shell's process tree and only a group kill can reach it.
        String command = "(sleep 300 & echo $! > orphan.pid); sleep 300 & echo $! > child.pid; echo started; wait";

        CommandResult result = run(sandbox, command, CommandOptions.builder().timeout(Duration.ofSeconds(1)).build());

        assertThat(result.exitCode()).isEqualTo(CommandResult.TIMEOUT_EXIT_CODE);
        assertThat(result.timedOut()).isTrue();
        assertThat(result.success()).isFalse();
        assertThat(result.stdout()).as("output before the timeout is kept").isEqualTo("started\n");
        assertDiesSoon(readPid(sandbox, sandbox.directory().resolve("child.pid")));
        assertDiesSoon(readPid(sandbox, sandbox.directory().resolve("orphan.pid")));
    }

    @Test
    void aCommandThatFinishesInTimeIsNotReportedAsTimedOut() {
        CommandResult result = run(sandbox, "exit 5", CommandOptions.builder().timeout(Duration.ofSeconds(60)).build());

        assertThat(result.exitCode()).isEqualTo(5);
        assertThat(result.timedOut()).isFalse();
    }

    @Test
    void theSandboxStaysUsableAfterATimeout() {
        run(sandbox, "sleep 300", CommandOptions.builder().timeout(Duration.ofMillis(200)).build());

        CommandResult next = run(sandbox, "echo fine");

        assertThat(next.stdout()).isEqualTo("fine\n");
        assertThat(next.exitCode()).isZero();
    }
}
