package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.api.StartOutcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

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
}
