package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.api.testing.TestProviderContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Tenants apart on one engine: two factories of different owners, or of one owner with two state
 * directories, each open session {@code fix-42} at once, each with its own container, and each lists
 * and removes only its own.
 */
@ExtendWith(RequiresDockerEngine.class)
class DockerTenantsIT {

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
    void twoOwnersEachOpenTheSameSession() {
        String session = fixture.sessionId("fix-42");
        DockerFactorySandbox alice = fixture.factory("alice-" + session, b -> b);
        DockerFactorySandbox bob = fixture.factory("bob-" + session, b -> b);
        assertApart(alice, bob, session);
    }

    @Test
    void oneOwnerWithTwoStateDirectoriesOpensTheSameSessionTwice(@TempDir Path one, @TempDir Path two) {
        String session = fixture.sessionId("fix-42");
        DockerFactorySandbox first = open(one);
        DockerFactorySandbox second = open(two);
        assertApart(first, second, session);
    }

    private DockerFactorySandbox open(Path stateDirectory) {
        return fixture.factory(b -> b, new TestProviderContext(stateDirectory, fixture.owner()));
    }

    private void assertApart(DockerFactorySandbox a, DockerFactorySandbox b, String session) {
        DockerSandbox inA = a.create(FactorySandboxContext.of(session));
        DockerSandbox inB = b.create(FactorySandboxContext.of(session));
        inA.start();
        inB.start();
        assertThat(inA.containerName()).isNotEqualTo(inB.containerName());
        assertThat(inA.sandboxId()).isNotEqualTo(inB.sandboxId());
        inA.executeCommand("echo a >/workspace/who");
        inB.executeCommand("echo b >/workspace/who");
        assertThat(inA.executeCommand("cat /workspace/who").stdout()).isEqualTo("a\n");
        assertThat(inB.executeCommand("cat /workspace/who").stdout()).isEqualTo("b\n");

        assertThat(a.listSandboxes()).extracting(SandboxListing::sandboxId).containsExactly(inA.sandboxId().orElseThrow());
        assertThat(b.listSandboxes()).extracting(SandboxListing::sandboxId).containsExactly(inB.sandboxId().orElseThrow());
        SandboxListing ofB = b.listSandboxes().get(0);
        assertThatThrownBy(() -> a.removeSandbox(ofB)).isInstanceOf(InvalidInputException.class).hasMessageContaining("Refusing");
        a.removeSandbox(a.listSandboxes().get(0));
        assertThat(a.listSandboxes()).isEmpty();
        assertThat(inB.executeCommand("cat /workspace/who").stdout()).isEqualTo("b\n");
    }

    /** A container made before names carried the tenant: its session finds it by the recorded id, and sweep lists it. */
    @Test
    void aContainerMadeBeforeTenantsIsFoundByItsRecordedIdAndListed() {
        String session = fixture.sessionId("legacy");
        Map<String, String> labels = new java.util.LinkedHashMap<>(fixture.runLabels());
        labels.put(SandboxLabels.SESSION, session);
        labels.put(SandboxLabels.PROVIDER, DockerSandboxProvider.NAME);
        labels.put(SandboxLabels.OWNER, fixture.owner());
        String legacyId = fixture.engine().createContainerCmd(DockerProviderConfig.DEFAULT_IMAGE)
                .withName(ContainerNames.legacyName(session))
                .withLabels(labels)
                .withEntrypoint("/bin/sh", "-c", DockerSandbox.KEEP_ALIVE)
                .withHostConfig(com.github.dockerjava.api.model.HostConfig.newHostConfig().withNetworkMode("none"))
                .exec().getId();
        DockerFactorySandbox factory = fixture.factory();
        assertThat(factory.listSandboxes()).extracting(SandboxListing::sandboxId).contains(legacyId);
        DockerSandbox sandbox = factory.create(FactorySandboxContext.builder(session).sandboxId(legacyId).build());
        sandbox.start();
        assertThat(sandbox.sandboxId()).contains(legacyId);
        assertThat(sandbox.executeCommand("echo legacy").stdout()).isEqualTo("legacy\n");
    }
}
