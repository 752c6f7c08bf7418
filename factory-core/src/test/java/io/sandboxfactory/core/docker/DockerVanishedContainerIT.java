package io.sandboxfactory.core.docker;

import io.sandboxfactory.core.testing.RequiresDocker;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.store.api.SessionRecord;
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
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A session's container removed behind the factory's back ({@code docker rm -f}): the next command
 * fails with {@link SandboxDestroyedException}, and the next start makes a fresh container that the
 * session start hook prepares again (clone, branch, setup).
 */
@ExtendWith(RequiresDocker.class)
class DockerVanishedContainerIT {

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
    void reopeningAfterTheContainerWasRemovedMakesAndPreparesAFreshOne() {
        String id = rig.sessionId("gone");
        SessionSpec spec = rig.spec(id).build();
        try (SandboxFactory factory = rig.factory()) {
            MastraSandbox<?> sandbox = factory.openSession(spec).sandbox();
            String removed = removeFromOutside(sandbox);

            assertThatThrownBy(() -> sandbox.executeCommand("echo never"))
                    .isInstanceOf(SandboxDestroyedException.class)
                    .hasMessageContaining(id);

            SessionHandle reopened = factory.openSession(spec);
            assertFreshAndPrepared(factory, reopened.sandbox(), id, removed, reopened.checkout().orElseThrow());
        }
    }

    @Test
    void theNextCommandAfterTheFailureStartsAFreshPreparedContainer() {
        String id = rig.sessionId("gone-cmd");
        try (SandboxFactory factory = rig.factory()) {
            SessionHandle handle = factory.openSession(rig.spec(id).build());
            MastraSandbox<?> sandbox = handle.sandbox();
            String removed = removeFromOutside(sandbox);

            assertThatThrownBy(() -> sandbox.executeCommand("echo never")).isInstanceOf(SandboxDestroyedException.class);

            // The same instance: its next command starts it again, and the start hook runs first.
            CommandResult result = sandbox.executeCommand("echo back");
            assertThat(result.stdout()).isEqualTo("back\n");
            assertFreshAndPrepared(factory, sandbox, id, removed, handle.checkout().orElseThrow());
        }
    }

    private String removeFromOutside(MastraSandbox<?> sandbox) {
        String containerId = sandbox.sandboxId().orElseThrow();
        rig.engine().removeContainerCmd(containerId).withForce(true).exec();
        assertThat(rig.inspect(containerId)).isEmpty();
        return containerId;
    }

    private void assertFreshAndPrepared(SandboxFactory factory, MastraSandbox<?> sandbox, String id, String removed, String checkout) {
        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CREATED);
        String fresh = sandbox.sandboxId().orElseThrow();
        assertThat(fresh).isNotEqualTo(removed);
        assertThat(rig.containersOfSession(id)).hasSize(1).first().extracting(c -> c.getId()).isEqualTo(fresh);
        CommandResult branch = sandbox.executeCommand("git rev-parse --abbrev-ref HEAD", List.of(),
                CommandOptions.builder().cwd(checkout).build());
        assertThat(branch.stdout().strip()).as(branch.stderr()).isEqualTo(DockerSessionRig.BRANCH);
        assertThat(DockerSessionRig.setupRuns(sandbox)).as("setup ran in the fresh container").isEqualTo(1);
        assertThat(factory.sessionStore().find(id)).map(SessionRecord::sandboxId).contains(Optional.of(fresh));
    }
}
