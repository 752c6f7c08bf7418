package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.api.StartOutcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import io.sandboxfactory.api.support.Polling;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One instance outlives its container: after a command reported the container gone, the instance
 * is stopped and its next start reconnects to a container stopped from outside, or creates a fresh
 * one for a container removed from outside, running the start hook again either way.
 */
@ExtendWith(RequiresDockerEngine.class)
class DockerContainerLossIT {

    private DockerFixture fixture;

    @BeforeEach
    void setUp() {
        fixture = new DockerFixture();
    }

    @AfterEach
    void cleanUp() {
        fixture.close();
    }

    @Test
    void afterARemovalFromOutsideTheNextCommandRunsInAFreshContainer() {
        DockerSandbox sandbox = fixture.sandbox(fixture.factory(), fixture.sessionId("removed"));
        AtomicInteger hookRuns = new AtomicInteger();
        sandbox.setOnStart(previous -> event -> {
            hookRuns.incrementAndGet();
            previous.onStart(event);
        });
        sandbox.start();
        String removed = sandbox.sandboxId().orElseThrow();
        fixture.engine().removeContainerCmd(removed).withForce(true).exec();

        assertThatThrownBy(() -> sandbox.executeCommand("echo never")).isInstanceOf(SandboxDestroyedException.class);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);

        assertThat(sandbox.executeCommand("echo back").stdout()).isEqualTo("back\n");
        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CREATED);
        assertThat(sandbox.sandboxId()).isPresent().get().isNotEqualTo(removed);
        assertThat(hookRuns).hasValue(2);
    }

    @Test
    void afterAStopFromOutsideTheNextStartReconnectsAndKeepsTheFiles() {
        DockerSandbox sandbox = fixture.sandbox(fixture.factory(), fixture.sessionId("stopped"));
        sandbox.start();
        sandbox.executeCommand("echo kept > /workspace/file.txt");
        String containerId = sandbox.sandboxId().orElseThrow();
        fixture.engine().stopContainerCmd(containerId).withTimeout(1).exec();

        assertThatThrownBy(() -> sandbox.executeCommand("echo never")).isInstanceOf(SandboxDestroyedException.class);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);

        sandbox.start();
        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CONNECTED);
        assertThat(sandbox.sandboxId()).contains(containerId);
        assertThat(sandbox.executeCommand("cat /workspace/file.txt").stdout()).isEqualTo("kept\n");
    }

    /**
     * A command in flight on the command channel when the container is stopped from outside ends
     * with the container, not with its own timeout: the engine does not always end the channel's
     * stream then (seen under gVisor), so the channel asks whether its container still runs.
     */
    @Test
    void aCommandInFlightWhenTheContainerIsStoppedFromOutsideEndsWithIt() throws Exception {
        DockerSandbox sandbox = fixture.sandbox(fixture.factory(), fixture.sessionId("inflight"));
        sandbox.start();
        sandbox.executeCommand("true");
        String containerId = sandbox.sandboxId().orElseThrow();
        CompletableFuture<CommandResult> inFlight = CompletableFuture.supplyAsync(() -> sandbox.executeCommand("echo started > /workspace/started; sleep 3600"));
        // The channel carries one command at a time: this check goes by a plain exec.
        assertThat(Polling.until(Duration.ofMinutes(1), Duration.ofMillis(50),
                () -> sandbox.executeCommand("test -e /workspace/started").exitCode() == 0)).as("the command started").isTrue();

        fixture.engine().stopContainerCmd(containerId).withTimeout(1).exec();

        // Either way it ended: the channel reports the lost container, an exec reports the killed command.
        Object outcome = inFlight.handle((result, failure) -> failure != null ? failure : result).get(2, TimeUnit.MINUTES);
        assertThat(outcome).as("the command ended with its container").matches(o -> o instanceof Throwable || ((CommandResult) o).exitCode() != 0);
    }
}
