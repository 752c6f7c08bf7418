package io.sandboxfactory.core.docker;

import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.retire.RetireResult;
import io.sandboxfactory.core.retire.SessionSelector;
import io.sandboxfactory.core.testing.RequiresDocker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bulk retirement on a real engine: 20 sessions of one label, opened by one factory and retired by
 * another (as another process would), each with its teardown, while a session of another label stays.
 */
@ExtendWith(RequiresDocker.class)
class DockerBulkRetirementIT {

    private static final int SESSIONS = 20;

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
    void twentySessionsOfALabelAreRetiredAndOnlyThey() {
        List<String> ids = new ArrayList<>();
        String kept = rig.sessionId("kept");
        try (SandboxFactory opener = rig.factory()) {
            for (int i = 0; i < SESSIONS; i++) {
                String id = rig.sessionId("bulk-" + i);
                ids.add(id);
                opener.openSession(rig.spec(id).label("batch", rig.runId().substring(0, 8))
                        .teardownCommands("echo bye > /tmp/teardown-ran").build());
            }
            opener.openSession(rig.spec(kept).label("batch", "other").build());
        }

        List<RetireResult> results;
        try (SandboxFactory retirer = rig.factory()) {
            results = retirer.fleet().retireAll(SessionSelector.label("batch", rig.runId().substring(0, 8)), RetireMode.DESTROY);
            for (String id : ids) {
                assertThat(retirer.sessionStore().find(id)).as(id).isEmpty();
            }
        }

        assertThat(results).hasSize(SESSIONS);
        assertThat(results).extracting(RetireResult::outcome).containsOnly(RetireResult.Outcome.RETIRED);
        assertThat(results).extracting(RetireResult::sessionId).containsExactlyInAnyOrderElementsOf(ids);
        for (String id : ids) {
            assertThat(rig.containersOfSession(id)).as("containers of " + id).isEmpty();
        }
        assertThat(rig.containersOfSession(kept)).hasSize(1);
    }
}
