package io.sandboxfactory.core.docker;

import io.sandboxfactory.core.testing.RequiresDocker;
import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.testing.RecordingListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Counts the commands (each one exec round trip to the engine) that the session machinery sends
 * to a docker sandbox, through {@code SessionListener.onCommand}. A warm start of a session that is
 * already set up — its container still running when a new process opens it, or stopped by a
 * retirement — stays within {@value #WARM_START_BUDGET}.
 */
@ExtendWith(RequiresDocker.class)
class DockerWarmStartRoundTripsIT {

    /** The budget a warm start must stay within. */
    private static final int WARM_START_BUDGET = 3;

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
    void warmStartsOfASetUpSessionOnDockerStayWithinTheBudget() {
        String id = rig.sessionId("warm");
        SessionSpec spec = rig.spec(id).build();
        RecordingListener cold = new RecordingListener();
        try (SandboxFactory first = rig.factory(cold)) {
            first.openSession(spec);
            assertThat(cold.commands()).as("a cold start clones and sets up: more than a warm one")
                    .hasSizeGreaterThan(WARM_START_BUDGET);
        }

        // A new factory, as after a restart of the host process, while the container still runs.
        RecordingListener running = new RecordingListener();
        try (SandboxFactory second = rig.factory(running)) {
            SessionHandle handle = second.openSession(spec);
            assertThat(handle.sandbox().lastStartOutcome()).contains(StartOutcome.CONNECTED);
            assertThat(running.commands()).as("%s", running.commands()).isNotEmpty().hasSizeLessThanOrEqualTo(WARM_START_BUDGET);
            second.retire(id, RetireMode.STOP);
        }

        // A new factory on the stopped container: it is started again, the workspace is intact.
        RecordingListener stopped = new RecordingListener();
        try (SandboxFactory third = rig.factory(stopped)) {
            SessionHandle handle = third.openSession(spec);
            assertThat(handle.sandbox().lastStartOutcome()).contains(StartOutcome.CONNECTED);
            assertThat(stopped.commands()).as("%s", stopped.commands()).isNotEmpty().hasSizeLessThanOrEqualTo(WARM_START_BUDGET);
            assertThat(DockerSessionRig.setupRuns(handle.sandbox())).isEqualTo(1);
        }
    }
}
