package io.sandboxfactory.core.docker;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.retire.RetireResult;
import io.sandboxfactory.core.session.EnvironmentRepository;
import io.sandboxfactory.core.session.SessionEnvironment;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.RequiresDocker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A two-repository environment on a real engine: opened by one factory, used and retired by
 * another (as later processes would), the teardown of each repository and of the workspace in order.
 */
@ExtendWith(RequiresDocker.class)
class DockerEnvironmentIT {

    @TempDir
    Path tmp;
    DockerSessionRig rig;
    Path ui;

    @BeforeEach
    void rig() throws IOException {
        rig = new DockerSessionRig(tmp);
        // Beside the rig's repository, so inside the directory it mounts into every container.
        ui = Git.bareRepository(rig.remote().getParent().resolve("ui.git"));
    }

    @AfterEach
    void cleanUp() {
        rig.close();
    }

    @Test
    void aTwoRepositoryEnvironmentOpensRunsAndRetiresAcrossFactories() {
        String id = rig.sessionId("env");
        String log = "/workspace/teardown.log";
        SessionEnvironment env = new SessionEnvironment(List.of(
                new EnvironmentRepository(rig.remote().toString(), Optional.empty(), Optional.empty(), List.of("echo api > .set-up"),
                        List.of("echo app-teardown >> " + log), Optional.empty()),
                new EnvironmentRepository(ui.toString(), Optional.of("frontend"), Optional.empty(), List.of(), List.of(
                        "echo ui-teardown >> " + log), Optional.empty())),
                List.of("test -d app && test -d frontend && echo both-checked-out > workspace.txt"), List.of("echo workspace-teardown >> " + log), List.of());
        try (SandboxFactory opener = rig.factory()) {
            opener.openSession(SessionSpec.builder(id).branch("b").environment(env).build());
        }

        try (SandboxFactory later = rig.factory()) {
            SessionHandle handle = later.openSession(SessionSpec.resume(later.sessionStore().find(id).orElseThrow().definition()).build())
                    .awaitStarted();
            String out = handle.executeCommand("cat .set-up; git rev-parse --abbrev-ref HEAD; ls ../frontend; cat ../workspace.txt",
                    List.of(), CommandOptions.builder().cwd(handle.checkout().orElseThrow()).build()).stdout();
            assertThat(out).isEqualTo("api\nb\nREADME.md\nboth-checked-out\n");

            RetireResult result = later.retire(id, RetireMode.STOP);
            assertThat(result.outcome()).isEqualTo(RetireResult.Outcome.RETIRED);
        }
        try (SandboxFactory reader = rig.factory()) {
            SessionHandle handle = reader.openSession(SessionSpec.resume(reader.sessionStore().find(id).orElseThrow().definition()).build())
                    .awaitStarted();
            assertThat(handle.executeCommand("cat " + log, List.of(), CommandOptions.builder().build()).stdout())
                    .isEqualTo("app-teardown\nui-teardown\nworkspace-teardown\n");
            reader.retire(id, RetireMode.DESTROY);
            assertThat(rig.containersOfSession(id)).isEmpty();
        }
    }
}
