package io.sandboxfactory.core.docker;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.EgressConfig;
import io.sandboxfactory.core.testing.RequiresDocker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An egress allow-list on a real Docker engine fails closed: a container on a network of its own
 * (bridge) is refused at open naming the setting; a container without network whose image has no
 * listener for the factory's channel (the test image has neither perl nor socat) fails its open
 * with one sentence saying so; neither leaves a session behind.
 */
@ExtendWith(RequiresDocker.class)
class DockerEgressIT {

    @TempDir
    Path tmp;

    private DockerSessionRig rig;

    @AfterEach
    void close() throws Exception {
        if (rig != null) {
            rig.close();
        }
    }

    private static EgressConfig allowlist() {
        return new EgressConfig("allowlist", List.of("registry.example.test"), Map.of(), Optional.empty());
    }

    @Test
    void aContainerWithANetworkOfItsOwnIsRefusedAtOpen() throws Exception {
        rig = new DockerSessionRig(tmp);
        SandboxFactory factory = rig.egressFactory("bridge", allowlist());
        String id = rig.sessionId("bridged");
        assertThatThrownBy(() -> factory.openSession(rig.spec(id).build()))
                .isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("egress.mode allowlist needs sandboxes without a network route of their own")
                .hasMessageContaining("docker: a networkMode other than none");
        assertThat(factory.sessionStore().find(id)).isEmpty();
    }

    @Test
    void aContainerWithoutAListenerToolFailsItsOpenSayingSo() throws Exception {
        rig = new DockerSessionRig(tmp);
        SandboxFactory factory = rig.egressFactory("none", allowlist());
        String id = rig.sessionId("no-listener");
        assertThatThrownBy(() -> factory.openSession(rig.spec(id).build()))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("has neither perl nor socat to listen on 127.0.0.1:3128 for the factory's channel");
        assertThat(factory.sessionStore().find(id)).isEmpty();
    }
}
