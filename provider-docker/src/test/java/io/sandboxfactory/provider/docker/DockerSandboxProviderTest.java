package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.testing.TestProviderContext;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxProvider;
import io.sandboxfactory.api.SandboxResources;
import io.sandboxfactory.api.SandboxStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Optional;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DockerSandboxProviderTest {

    @TempDir
    Path dir;

    @Test
    void isFoundByServiceLoaderUnderItsName() {
        assertThat(ServiceLoader.load(SandboxProvider.class).stream().map(ServiceLoader.Provider::get))
                .anySatisfy(p -> {
                    assertThat(p.name()).isEqualTo("docker");
                    assertThat(p.configType()).isEqualTo(DockerProviderConfig.class);
                    assertThat(p.description()).isNotBlank();
                });
    }

    @Test
    void createsSandboxesWithoutTouchingTheEngine() {
        // The host points at a socket that does not exist: nothing may connect before start().
        try (DockerFactorySandbox factory = open(DockerProviderConfig.builder().host("unix://" + dir.resolve("none.sock")).build())) {
            DockerSandbox sandbox = factory.create(FactorySandboxContext.builder("owner/repo#1").workingDirectory("/src").build());
            assertThat(sandbox.status()).isEqualTo(SandboxStatus.PENDING);
            assertThat(sandbox.id()).isEqualTo("owner/repo#1");
            assertThat(sandbox.name()).isEqualTo(sandbox.containerName()).isEqualTo(ContainerNames.forSession(Tenant.of("tests", dir), "owner/repo#1"));
            assertThat(sandbox.workingDirectory()).contains("/src");
            assertThat(factory.owner()).isEqualTo("tests");
        }
    }

    @Test
    void declaresNetworkIsolationOnlyWithoutANetwork() {
        try (DockerFactorySandbox isolated = open(DockerProviderConfig.defaults());
             DockerFactorySandbox hostNet = open(DockerProviderConfig.builder().networkMode("host").build())) {
            assertThat(isolated.capabilities()).containsExactlyInAnyOrder(
                    SandboxCapability.FILES_SURVIVE_STOP, SandboxCapability.RECONNECT_ACROSS_PROCESSES,
                    SandboxCapability.RESOURCE_LIMITS, SandboxCapability.NETWORK_ISOLATION, SandboxCapability.INVENTORY,
                    SandboxCapability.FILE_TRANSFER, SandboxCapability.TEMPLATES, SandboxCapability.HOST_DIRECTORIES,
                    SandboxCapability.ATTACH, SandboxCapability.STREAMS);
            assertThat(hostNet.capabilities()).doesNotContain(SandboxCapability.NETWORK_ISOLATION);
        }
    }

    @Test
    void seesHostDirectoriesOnlyThroughAnEngineOnThisHost() {
        try (DockerFactorySandbox remote = open(DockerProviderConfig.builder().host("tcp://127.0.0.1:2375").build())) {
            assertThat(remote.capabilities()).doesNotContain(SandboxCapability.HOST_DIRECTORIES).contains(SandboxCapability.TEMPLATES);
        }
    }

    @Test
    void rejectsABlankOwner() {
        assertThatThrownBy(() -> new DockerSandboxProvider().open(DockerProviderConfig.defaults(), new TestProviderContext(dir, " ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Owner ' ' is invalid for the docker provider; it labels every container and must not be blank.");
    }

    @Test
    void rejectsBadSessionSettingsBeforeAnythingIsCreated() {
        try (DockerFactorySandbox factory = open(DockerProviderConfig.defaults())) {
            assertThatThrownBy(() -> factory.create(FactorySandboxContext.builder("s1").workingDirectory("rel/dir").build()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Working directory of session 's1' 'rel/dir' is invalid; it must be an absolute path inside the"
                            + " container, such as /workspace.");
            assertThatThrownBy(() -> factory.create(FactorySandboxContext.builder("s1")
                    .resources(new SandboxResources(Optional.empty(), Optional.of(1024L))).build()))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessage("Memory limit 1024 of session 's1' is invalid; Docker needs at least 6291456 bytes (6m).");
        }
    }

    private DockerFactorySandbox open(DockerProviderConfig config) {
        return new DockerSandboxProvider().open(config, new TestProviderContext(dir, "tests"));
    }
}
