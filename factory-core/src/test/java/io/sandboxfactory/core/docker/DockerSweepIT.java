package io.sandboxfactory.core.docker;

import io.sandboxfactory.core.testing.RequiresDocker;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.provider.docker.DockerFactorySandbox;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link SandboxFactory#sweep()} on a real engine removes the containers of this owner whose
 * session the store does not know, and nothing else: not a live session's, not a stopped session's
 * whose record is kept, not another owner's.
 */
@ExtendWith(RequiresDocker.class)
class DockerSweepIT {

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
    void sweepRemovesOrphanedContainersAndLeavesLiveSessionsAlone() {
        String live = rig.sessionId("live");
        String parked = rig.sessionId("parked");
        String forgotten = rig.sessionId("forgotten");
        String raw = rig.sessionId("raw");
        String foreign = rig.sessionId("foreign");

        // An orphan whose record is gone (as after a crash between create and register): opened by a
        // factory that has since closed, then its record deleted.
        try (SandboxFactory earlier = rig.factory()) {
            earlier.openSession(rig.spec(forgotten).build());
            assertThat(earlier.sessionStore().delete(forgotten)).isTrue();
        }
        // An orphan the store never knew: made through the provider directly.
        DockerFactorySandbox direct = rig.provider(rig.owner());
        direct.create(FactorySandboxContext.of(raw)).start();
        // Another owner's container on the same engine is not this factory's to sweep.
        rig.provider("someone-else-" + rig.runId()).create(FactorySandboxContext.of(foreign)).start();

        SandboxFactory factory = rig.factory();
        MastraSandbox<?> liveSandbox = factory.openSession(rig.spec(live).build()).sandbox();
        factory.openSession(rig.spec(parked).build());
        factory.retire(parked, RetireMode.STOP);

        List<SandboxListing> swept = factory.fleet().sweep();

        assertThat(swept).extracting(SandboxListing::sessionId).containsExactlyInAnyOrder(forgotten, raw);
        assertThat(rig.containersOfSession(forgotten)).isEmpty();
        assertThat(rig.containersOfSession(raw)).isEmpty();
        assertThat(rig.containersOfSession(live)).hasSize(1).first().extracting(c -> c.getState()).isEqualTo("running");
        assertThat(rig.containersOfSession(parked)).hasSize(1).first().extracting(c -> c.getState()).isEqualTo("exited");
        assertThat(rig.containersOfSession(foreign)).hasSize(1);
        assertThat(liveSandbox.executeCommand("echo still here").stdout()).isEqualTo("still here\n");

        assertThat(factory.fleet().sweep()).as("a second sweep finds nothing left").isEmpty();
    }
}
