package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Container;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.api.testing.DeadHosts;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxResources;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.api.StartOutcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Containers as sandboxes on a real engine: get-or-create, stop and reconnect, removal from outside, destroy. */
@ExtendWith(RequiresDockerEngine.class)
class DockerLifecycleIT {

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
    void concurrentStartsFromTwoClientsMakeOneContainer() throws Exception {
        String session = fixture.sessionId("race");
        DockerFactorySandbox first = fixture.factory();
        DockerFactorySandbox second = fixture.factory();
        List<DockerSandbox> sandboxes = List.of(fixture.sandbox(first, session), fixture.sandbox(first, session),
                fixture.sandbox(second, session), fixture.sandbox(second, session));
        ExecutorService pool = Executors.newFixedThreadPool(sandboxes.size());
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<?>> starts = new ArrayList<>();
            for (DockerSandbox sandbox : sandboxes) {
                starts.add(pool.submit(() -> {
                    go.await();
                    sandbox.start();
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> start : starts) {
                start.get();
            }
        } finally {
            pool.shutdownNow();
        }

        List<Container> containers = fixture.containersOfSession(session);
        assertThat(containers).hasSize(1);
        for (DockerSandbox sandbox : sandboxes) {
            assertThat(sandbox.status()).isEqualTo(SandboxStatus.RUNNING);
            assertThat(sandbox.sandboxId()).contains(containers.get(0).getId());
            assertThat(sandbox.executeCommand("echo ok").stdout()).isEqualTo("ok\n");
        }
    }

    @Test
    void commandsADeadHostLeftRunningAreEndedByTheNextProcessThatConnectsButALiveHostsAreNot() throws Exception {
        String session = fixture.sessionId("dead-host");
        HostProcess deadHost = DeadHosts.exited();

        DockerSandbox ofDeadHost = fixture.sandbox(fixture.factoryAs(deadHost), session);
        ofDeadHost.start();
        // Commands the dead host left behind: one in its own session (setsid), one in the exec's group.
        ofDeadHost.executeCommand("setsid sleep 301 >/dev/null 2>&1 & sleep 302 >/dev/null 2>&1 & echo started");
        assertThat(ofDeadHost.executeCommand("ps -o args").stdout()).contains("sleep 301", "sleep 302");

        // The next process (a fresh instance, of a live host) connects to the running container.
        DockerSandbox next = fixture.sandbox(fixture.factory(), session);
        next.start();
        assertThat(processesOnceGone(next, "sleep 301", "sleep 302")).as("the dead host's commands are gone")
                .doesNotContain("sleep 301").doesNotContain("sleep 302");

        // A live host's commands survive the next connection.
        next.executeCommand("sleep 303 >/dev/null 2>&1 & echo started");
        DockerSandbox another = fixture.sandbox(fixture.factory(), session);
        another.start();
        assertThat(another.executeCommand("ps -o args").stdout()).as("a live host's command is never touched").contains("sleep 303");
    }

    /**
     * The container's processes ({@code ps -o args}) once none of them shows any of {@code killed},
     * or after ten seconds. A killed process keeps its arguments until it has exited, which nothing
     * waits for when its output went elsewhere; a process that was never killed stays far longer.
     */
    private static String processesOnceGone(DockerSandbox sandbox, String... killed) {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            String processes = sandbox.executeCommand("ps -o args").stdout();
            if (Arrays.stream(killed).noneMatch(processes::contains) || System.nanoTime() > deadline) {
                return processes;
            }
        }
    }

    @Test
    void stopKeepsFilesAndTheNextStartReconnects() {
        String session = fixture.sessionId("stop");
        DockerSandbox sandbox = fixture.sandbox(fixture.factory(), session);
        sandbox.start();
        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CREATED);
        assertThat(sandbox.executeCommand("echo kept > /workspace/file.txt").exitCode()).isZero();
        String containerId = sandbox.sandboxId().orElseThrow();

        sandbox.stop();
        sandbox.stop();
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);
        assertThat(fixture.engine().inspectContainerCmd(containerId).exec().getState().getRunning()).isFalse();

        // A fresh instance on another client, as another process would have.
        DockerSandbox again = fixture.sandbox(fixture.factory(), session);
        again.start();
        assertThat(again.lastStartOutcome()).contains(StartOutcome.CONNECTED);
        assertThat(again.sandboxId()).contains(containerId);
        assertThat(again.executeCommand("cat /workspace/file.txt").stdout()).isEqualTo("kept\n");

        // The stopped instance itself restarts the same container too.
        sandbox.start();
        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CONNECTED);
        assertThat(sandbox.sandboxId()).contains(containerId);
    }

    @Test
    void containerRemovedFromOutsideIsReportedAndRecreatedByAFreshInstance() {
        String session = fixture.sessionId("gone");
        DockerFactorySandbox factory = fixture.factory();
        DockerSandbox sandbox = fixture.sandbox(factory, session);
        sandbox.start();
        String oldId = sandbox.sandboxId().orElseThrow();

        fixture.engine().removeContainerCmd(oldId).withForce(true).exec();

        assertThatThrownBy(() -> sandbox.executeCommand("echo never"))
                .isInstanceOf(SandboxDestroyedException.class)
                .hasMessageContaining(session);
        DockerSandbox fresh = fixture.sandbox(factory, session);
        fresh.start();
        assertThat(fresh.lastStartOutcome()).contains(StartOutcome.CREATED);
        assertThat(fresh.sandboxId()).isPresent().get().isNotEqualTo(oldId);
        assertThat(fresh.executeCommand("echo back").stdout()).isEqualTo("back\n");
    }

    @Test
    void containerStoppedFromOutsideIsReportedAsGone() {
        DockerSandbox sandbox = fixture.sandbox(fixture.factory(), fixture.sessionId("stopped-outside"));
        sandbox.start();
        fixture.engine().stopContainerCmd(sandbox.sandboxId().orElseThrow()).withTimeout(1).exec();

        assertThatThrownBy(() -> sandbox.executeCommand("echo never"))
                .isInstanceOf(SandboxDestroyedException.class)
                .hasMessageContaining("not running");
    }

    @Test
    void destroyRemovesTheContainerAndIsIdempotent() {
        String session = fixture.sessionId("destroy");
        DockerSandbox sandbox = fixture.sandbox(fixture.factory(), session);
        sandbox.start();
        assertThat(fixture.containersOfSession(session)).hasSize(1);

        sandbox.destroy();
        sandbox.destroy();

        assertThat(sandbox.status()).isEqualTo(SandboxStatus.DESTROYED);
        assertThat(fixture.containersOfSession(session)).isEmpty();
        assertThatThrownBy(sandbox::start).isInstanceOf(SandboxDestroyedException.class);
    }

    @Test
    void destroyOnANeverStartedInstanceRemovesTheSessionsContainer() {
        String session = fixture.sessionId("destroy-cold");
        fixture.sandbox(fixture.factory(), session).start();

        DockerSandbox cold = fixture.sandbox(fixture.factory(), session);
        cold.destroy();

        assertThat(fixture.containersOfSession(session)).isEmpty();
    }

    @Test
    void containerCarriesLabelsLimitsAndNoNetwork() {
        String session = fixture.sessionId("labels");
        DockerFactorySandbox factory = fixture.factory(fixture.owner(),
                b -> b.cpus(0.5).memory("64m").labels(Map.of("team", "blue")));
        DockerSandbox sandbox = factory.create(FactorySandboxContext.builder(session)
                .resources(new SandboxResources(Optional.empty(), Optional.of(96L * 1024 * 1024)))
                .workingDirectory("/srv/session")
                .build());
        sandbox.start();

        InspectContainerResponse container = fixture.engine().inspectContainerCmd(sandbox.sandboxId().orElseThrow()).exec();
        assertThat(container.getName()).isEqualTo("/" + ContainerNames.forSession(fixture.tenant(), session));
        assertThat(container.getConfig().getLabels())
                .containsEntry(SandboxLabels.SESSION, session)
                .containsEntry(SandboxLabels.PROVIDER, "docker")
                .containsEntry(SandboxLabels.OWNER, fixture.owner())
                .containsEntry("team", "blue");
        assertThat(container.getHostConfig().getNetworkMode()).isEqualTo("none");
        assertThat(container.getHostConfig().getNanoCPUs()).isEqualTo(500_000_000L);
        assertThat(container.getHostConfig().getMemory()).isEqualTo(96L * 1024 * 1024);
        assertThat(container.getConfig().getTty()).isFalse();
        assertThat(factory.capabilities()).contains(io.sandboxfactory.api.SandboxCapability.NETWORK_ISOLATION);
        // The session's working directory was created with the container, and there is no network but loopback.
        assertThat(sandbox.executeCommand("pwd").stdout()).isEqualTo("/srv/session\n");
        assertThat(sandbox.executeCommand("ls /sys/class/net").stdout().trim()).isEqualTo("lo");
    }

    @Test
    void reattachesByThePersistedContainerIdAndFallsBackToTheName() {
        String session = fixture.sessionId("reattach");
        DockerFactorySandbox factory = fixture.factory();
        DockerSandbox first = fixture.sandbox(factory, session);
        first.start();
        String containerId = first.sandboxId().orElseThrow();

        DockerSandbox byId = factory.create(FactorySandboxContext.builder(session).sandboxId(containerId).build());
        byId.start();
        assertThat(byId.lastStartOutcome()).contains(StartOutcome.CONNECTED);
        assertThat(byId.sandboxId()).contains(containerId);

        DockerSandbox staleId = factory.create(FactorySandboxContext.builder(session).sandboxId("0123456789ab").build());
        staleId.start();
        assertThat(staleId.lastStartOutcome()).contains(StartOutcome.CONNECTED);
        assertThat(staleId.sandboxId()).contains(containerId);
    }

    @Test
    void refusesAContainerThatHasTheNameButIsNotThisSessions() {
        String session = fixture.sessionId("squatted");
        fixture.engine().createContainerCmd(DockerProviderConfig.DEFAULT_IMAGE)
                .withName(ContainerNames.forSession(fixture.tenant(), session))
                .withLabels(fixture.runLabels())
                .withHostConfig(com.github.dockerjava.api.model.HostConfig.newHostConfig().withNetworkMode("none"))
                .exec();

        DockerSandbox sandbox = fixture.sandbox(fixture.factory(), session);
        assertThatThrownBy(sandbox::start)
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining(ContainerNames.forSession(fixture.tenant(), session))
                .hasMessageContaining("is not the sandbox of session")
                .satisfies(e -> assertThat(((SandboxException) e).code()).isEqualTo("CONTAINER_NAME_TAKEN"));
    }

    @Test
    void missingImageFailsClearlyWithoutPulling() {
        DockerFactorySandbox factory = fixture.factory(fixture.owner(), b -> b.image("sandbox-factory/not-there:never"));
        DockerSandbox sandbox = fixture.sandbox(factory, fixture.sessionId("no-image"));

        assertThatThrownBy(sandbox::start)
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("sandbox-factory/not-there:never")
                .hasMessageContaining("never pulls")
                .satisfies(e -> assertThat(((SandboxException) e).code()).isEqualTo("IMAGE_MISSING"));
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.ERROR);
    }

    @Test
    void missingNetworkIsNotMistakenForAMissingImage() {
        DockerFactorySandbox factory = fixture.factory(fixture.owner(), b -> b.networkMode("sandbox-factory-no-such-net"));
        DockerSandbox sandbox = fixture.sandbox(factory, fixture.sessionId("no-net"));

        assertThatThrownBy(sandbox::start)
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("sandbox-factory-no-such-net")
                // Engines refuse it at create or (20.10) at start; either way the container is not left behind.
                .satisfies(e -> assertThat(((SandboxException) e).code()).isIn("CREATE_FAILED", "START_FAILED"));
        assertThat(fixture.containersOfSession(sandbox.id())).isEmpty();
    }
}
