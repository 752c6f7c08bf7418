package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.capability.SandboxListing;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Listing and removing the sandboxes of one owner on a real engine. */
@ExtendWith(RequiresDockerEngine.class)
class DockerInventoryIT {

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
    void listsOnlyThisOwnersContainersInEveryStateAndRemovesThem() {
        DockerFactorySandbox mine = fixture.factory();
        DockerFactorySandbox theirs = fixture.factory(fixture.owner() + "-other", b -> b);
        String running = fixture.sessionId("running");
        String stopped = fixture.sessionId("stopped");
        String foreign = fixture.sessionId("foreign");
        fixture.sandbox(mine, running).start();
        DockerSandbox toStop = fixture.sandbox(mine, stopped);
        toStop.start();
        toStop.stop();
        fixture.sandbox(theirs, foreign).start();

        Map<String, SandboxListing> listed = mine.listSandboxes().stream()
                .collect(Collectors.toMap(SandboxListing::sessionId, l -> l));
        assertThat(listed).containsOnlyKeys(running, stopped);
        assertThat(listed.get(running).running()).isTrue();
        assertThat(listed.get(stopped).running()).isFalse();
        assertThat(listed.get(running).createdAt()).isPresent();
        assertThat(listed.get(stopped).sandboxId()).isEqualTo(toStop.sandboxId().orElseThrow());

        SandboxListing foreignListing = theirs.listSandboxes().get(0);
        assertThatThrownBy(() -> mine.removeSandbox(foreignListing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Refusing to remove");
        assertThat(fixture.containersOfSession(foreign)).hasSize(1);

        mine.removeSandbox(listed.get(running));
        mine.removeSandbox(listed.get(running));
        mine.removeSandbox(listed.get(stopped));
        List<SandboxListing> after = mine.listSandboxes();
        assertThat(after).isEmpty();
        assertThat(fixture.containersOfSession(running)).isEmpty();
        assertThat(fixture.containersOfSession(stopped)).isEmpty();
    }
}
