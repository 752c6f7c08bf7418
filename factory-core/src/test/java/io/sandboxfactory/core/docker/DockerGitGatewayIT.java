package io.sandboxfactory.core.docker;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.GitHttpServer;
import io.sandboxfactory.core.testing.RequiresDocker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Git gateway on a real Docker engine with network {@code none}: the container has no route to
 * the authenticated remote on loopback, yet clones, fetches and pushes its branch through the
 * gateway's channel, never holding the token; a push to another branch is refused.
 */
@ExtendWith(RequiresDocker.class)
class DockerGitGatewayIT {

    @TempDir
    Path tmp;

    private DockerSessionRig rig;

    @AfterEach
    void close() throws Exception {
        if (rig != null) {
            rig.close();
        }
    }

    /**
     * With runc the channel's FIFOs are in the mounted host directory; gVisor passes no host FIFO, so
     * there the channel is bridged through the container's streams (docker exec attached to stdin).
     */
    @ParameterizedTest(name = "runtime {0}")
    @ValueSource(strings = {"runc", "runsc"})
    void aContainerWithoutNetworkUsesGitThroughTheGatewayWithoutTheToken(String runtime) throws Exception {
        rig = new DockerSessionRig(tmp);
        Path served = tmp.resolve("served");
        Path upstream = Git.bareRepository(served.resolve("app.git"));
        String token = "ghp_" + UUID.randomUUID().toString().replace("-", "");
        try (GitHttpServer server = new GitHttpServer(served, token)) {
            SandboxFactory factory = rig.tokenFactory(token, runtime.equals("runc") ? Optional.empty() : Optional.of(runtime));
            String id = rig.sessionId("gateway-" + runtime);
            SessionHandle handle = factory.openSession(SessionSpec.builder(id).repository(server.url("app.git")).branch("feature/box").build());
            CommandOptions in = CommandOptions.builder().cwd(handle.checkout().orElseThrow()).build();
            assertThat(server.authorizedRequests()).isPositive();

            CommandResult direct = handle.executeCommand("GIT_CONFIG_COUNT=0 git ls-remote " + server.url("app.git"), List.of(), in);
            assertThat(direct.exitCode()).as("the container reaches the remote directly").isNotZero();
            String looked = handle.executeCommand("env; cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n'; cat .git/config", List.of(), in).stdout();
            assertThat(looked).contains("GIT_CONFIG_COUNT").doesNotContain(token)
                    .contains(runtime.equals("runc") ? "/channels/git-" : "/tmp/.sandbox-factory-channels/git-");

            CommandResult push = handle.executeCommand("echo x > x.txt && git add x.txt && git commit -qm x && git fetch -q origin"
                    + " && git push -q origin HEAD", List.of(), in);
            assertThat(push.exitCode()).as(push.stderr()).isZero();
            assertThat(Git.run(upstream, "rev-parse", "refs/heads/feature/box"))
                    .isEqualTo(handle.executeCommand("git rev-parse HEAD", List.of(), in).stdout().strip());
            CommandResult refused = handle.executeCommand("git push origin HEAD:main", List.of(), in);
            assertThat(refused.exitCode()).isNotZero();
            assertThat(refused.stderr()).contains("this session may push only refs/heads/feature/box");
            factory.retire(id, RetireMode.DESTROY);
        }
    }
}
