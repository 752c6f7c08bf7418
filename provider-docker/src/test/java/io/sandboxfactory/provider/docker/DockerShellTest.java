package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.capability.AttachableSandbox;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The docker provider's interactive attach, by the {@code docker exec} it describes. */
class DockerShellTest {

    private static final Map<String, String> CALLER = Map.of("PATH", "/usr/bin", "HOME", "/home/me", "DOCKER_HOST", "tcp://elsewhere:2375");

    @Test
    void onATerminalItIsDockerExecWithATtyInTheDirectoryAndTheSessionsVariablesByNameOnly() {
        Map<String, String> overlay = new LinkedHashMap<>();
        overlay.put("GIT_TOKEN", "s3cret");
        overlay.put("SESSION_VAR", "value");

        AttachableSandbox.Attach attach = DockerShell.attach("c0ffee", new AttachableSandbox.Request("/workspace/app", true, CALLER),
                overlay, Optional.of("unix:///run/engine.sock"));

        assertThat(attach.command()).containsExactly("docker", "exec", "-i", "-t", "-w", "/workspace/app", "-e", "GIT_TOKEN",
                "-e", "SESSION_VAR", "c0ffee", "sh");
        assertThat(attach.command()).noneMatch(arg -> arg.contains("s3cret"));
        assertThat(attach.environment()).containsEntry("GIT_TOKEN", "s3cret").containsEntry("SESSION_VAR", "value")
                .containsEntry("PATH", "/usr/bin").containsEntry("HOME", "/home/me")
                .containsEntry("DOCKER_HOST", "unix:///run/engine.sock");
        assertThat(attach.hostDirectory()).isEmpty();
    }

    @Test
    void withoutATerminalThereIsNoTtyAndWithTheEnvironmentsSettingsTheCallersDockerHostStays() {
        AttachableSandbox.Attach attach = DockerShell.attach("c0ffee", new AttachableSandbox.Request("/workspace", false, CALLER),
                Map.of(), Optional.empty());

        assertThat(attach.command()).containsExactly("docker", "exec", "-i", "-w", "/workspace", "c0ffee", "sh");
        assertThat(attach.environment()).isEqualTo(CALLER);
    }

    @Test
    void theClientIsPointedAtTheConfiguredEngineUnlessTheEnvironmentDecides() {
        assertThat(new DockerConnection(DockerProviderConfig.builder().host("tcp://127.0.0.1:2375").build()).clientHost())
                .contains("tcp://127.0.0.1:2375");
        assertThat(new DockerConnection(DockerProviderConfig.defaults()).clientHost()).contains(DockerProviderConfig.DEFAULT_HOST);
        assertThat(new DockerConnection(DockerProviderConfig.builder().useEnvironment(true).build()).clientHost()).isEmpty();
    }
}
