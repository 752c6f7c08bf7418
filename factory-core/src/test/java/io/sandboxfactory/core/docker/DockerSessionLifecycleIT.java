package io.sandboxfactory.core.docker;

import io.sandboxfactory.core.testing.RequiresDocker;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Container;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.MaterializeException;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.store.api.SessionRecord;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.RecordingListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * A whole session on a real Docker engine through {@link SandboxFactory}: open (create the
 * container, clone the host's bare repository through a read-only bind mount, create the session
 * branch, run the setup once), run commands, retire with STOP (container stopped, files kept),
 * reopen from a new factory (the container is reconnected and the setup skipped) and retire with
 * DESTROY (container and record gone).
 */
@ExtendWith(RequiresDocker.class)
class DockerSessionLifecycleIT {

    @TempDir
    Path tmp;
    DockerSessionRig rig;

    @BeforeEach
    void rig() throws IOException {
        rig = new DockerSessionRig(tmp);
    }

    @AfterEach
    void cleanUp() {
        rig.close();
    }

    @Test
    void aSessionLivesInOneContainerFromOpenThroughStopAndReconnectToDestroy() {
        String id = rig.sessionId("life");
        SessionSpec spec = rig.spec(id).build();
        String containerId;
        String checkout;

        RecordingListener cold = new RecordingListener();
        try (SandboxFactory first = rig.factory(cold)) {
            SessionHandle handle = first.openSession(spec);
            MastraSandbox<?> sandbox = handle.sandbox();
            assertThat(sandbox.status()).isEqualTo(SandboxStatus.RUNNING);
            assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CREATED);
            containerId = sandbox.sandboxId().orElseThrow();
            assertThat(rig.containersOfSession(id)).extracting(Container::getId).containsExactly(containerId);

            // Cloned from the host path, which the container sees through the read-only mount.
            checkout = handle.checkout().orElseThrow();
            assertThat(checkout).isEqualTo("/workspace/app");
            assertThat(run(sandbox, checkout, "git rev-parse --abbrev-ref HEAD")).isEqualTo(DockerSessionRig.BRANCH);
            assertThat(run(sandbox, checkout, "git config --get remote.origin.url")).isEqualTo(rig.remote().toString());
            assertThat(run(sandbox, checkout, "git rev-parse HEAD")).isEqualTo(Git.revParse(rig.remote(), "main"));
            assertThat(run(sandbox, checkout, "cat README.md")).isEqualTo("# fixture");
            assertThat(cold.phases()).contains(SessionPhase.CLONE, SessionPhase.SETUP, SessionPhase.READY);
            assertThat(DockerSessionRig.setupRuns(sandbox)).isEqualTo(1);

            // Commands run in the container: work in the checkout, and the mount cannot be written.
            assertThat(run(sandbox, checkout, "echo draft > notes.txt && git status --porcelain")).isEqualTo("?? notes.txt");
            CommandResult write = sandbox.executeCommand("touch " + rig.remote() + "/written-from-the-sandbox");
            assertThat(write.exitCode()).as(write.stderr()).isNotZero();

            // Opening again in the same factory keeps the instance and does not set up again.
            assertThat(first.openSession(spec).sandbox()).isSameAs(sandbox);
            assertThat(DockerSessionRig.setupRuns(sandbox)).isEqualTo(1);

            first.retire(id, RetireMode.STOP);
            assertThat(first.session(id)).isEmpty();
            InspectContainerResponse stopped = rig.inspect(containerId).orElseThrow();
            assertThat(stopped.getState().getRunning()).isFalse();
            assertThat(first.sessionStore().find(id)).map(SessionRecord::sandboxId).contains(Optional.of(containerId));
        }

        RecordingListener warm = new RecordingListener();
        try (SandboxFactory second = rig.factory(warm)) {
            SessionHandle handle = second.openSession(spec);
            MastraSandbox<?> sandbox = handle.sandbox();
            assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CONNECTED);
            assertThat(sandbox.sandboxId()).contains(containerId);
            assertThat(rig.inspect(containerId).orElseThrow().getState().getRunning()).isTrue();
            // The marker is seen: no setup, no clone, and the files of the stopped container are all there.
            assertThat(warm.phases()).doesNotContain(SessionPhase.SETUP, SessionPhase.CLONE);
            assertThat(DockerSessionRig.setupRuns(sandbox)).isEqualTo(1);
            assertThat(run(sandbox, checkout, "cat notes.txt")).isEqualTo("draft");
            assertThat(run(sandbox, checkout, "git rev-parse --abbrev-ref HEAD")).isEqualTo(DockerSessionRig.BRANCH);

            second.retire(id, RetireMode.DESTROY);
            assertThat(rig.inspect(containerId)).isEmpty();
            assertThat(rig.containersOfSession(id)).isEmpty();
            assertThat(second.sessionStore().find(id)).isEmpty();
            assertThat(sandbox.status()).isEqualTo(SandboxStatus.DESTROYED);
        }
    }

    @Test
    void theSessionContainerIsNamedAndLabelledForItsSessionProviderAndOwner() {
        String id = rig.sessionId("labels");
        try (SandboxFactory factory = rig.factory()) {
            String containerId = factory.openSession(rig.spec(id).build()).sandbox().sandboxId().orElseThrow();

            InspectContainerResponse container = rig.inspect(containerId).orElseThrow();
            // sf-<tenant key>-<id>: two owners or state directories on one engine each have their own.
            assertThat(container.getName()).matches("/sf-[0-9a-f]{8}-" + java.util.regex.Pattern.quote(id));
            assertThat(container.getConfig().getLabels())
                    .containsEntry(DockerSessionRig.SESSION_LABEL, id)
                    .containsEntry(DockerSessionRig.PROVIDER_LABEL, "docker")
                    .containsEntry(DockerSessionRig.OWNER_LABEL, rig.owner())
                    .containsEntry(DockerSessionRig.RUN_LABEL, rig.runId());
            assertThat(container.getHostConfig().getNetworkMode()).isEqualTo("none");
            String mounted = rig.remote().getParent().toString();
            assertThat(List.of(container.getHostConfig().getBinds()))
                    .extracting(Bind::getPath, b -> b.getVolume().getPath(), Bind::getAccessMode)
                    .contains(tuple(mounted, mounted, AccessMode.ro));
        }
    }

    @Test
    void aHostPathRepositoryIsMountedReadOnlyWithoutAVolumesEntryWhenTheEngineIsLocal() {
        String id = rig.sessionId("unmounted");
        Map<String, Object> withoutMounts = Map.of("networkMode", "none", "labels", Map.of(DockerSessionRig.RUN_LABEL, rig.runId()));
        try (SandboxFactory factory = rig.factory(SessionListener.NONE, withoutMounts)) {
            // The core hands the repository's host path to the provider, which mounts it read-only.
            MastraSandbox<?> sandbox = factory.openSession(rig.spec(id).build()).sandbox();
            CommandResult write = sandbox.executeCommand("touch " + rig.remote() + "/written-from-the-session");
            assertThat(write.exitCode()).as("the repository is mounted read-only").isNotZero();

            // A path that is missing on the host as well gets git's own message alone.
            Path missing = tmp.resolve("nowhere/app.git");
            assertThatThrownBy(() -> factory.openSession(SessionSpec.builder(rig.sessionId("missing")).repository(missing.toString())
                    .branch(DockerSessionRig.BRANCH).build()))
                    .isInstanceOf(MaterializeException.class)
                    .hasMessageEndingWith("fatal: repository '" + missing + "' does not exist");
        }
    }

    private static String run(MastraSandbox<?> sandbox, String cwd, String command) {
        CommandResult result = sandbox.executeCommand(command, List.of(), CommandOptions.builder().cwd(cwd).build());
        assertThat(result.exitCode()).as("%s: %s", command, result.stderr()).isZero();
        return result.stdout().strip();
    }
}
