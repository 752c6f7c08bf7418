package io.sandboxfactory.core.gateway;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.config.RepositoryDefaults;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.testing.CapturedLogs;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.GitHttpServer;
import io.sandboxfactory.provider.kubernetes.FakeKubelet;
import io.sandboxfactory.provider.kubernetes.MockCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Git gateway for a Kubernetes session, whose pod sees no host directory: its channel is
 * bridged through the provider's streams (pod execs over the API server's websocket), here fabric8's
 * mock API server with the fake kubelet running the pod's processes on this host. The pod clones,
 * fetches and pushes its branch through the gateway; its commands never hold the token (the remote
 * refuses them without the gateway), nor do the journal and the logs; another ref is refused.
 */
class KubernetesGitGatewayTest {

    @TempDir
    Path tmp;

    @Test
    void aPodUsesGitThroughTheBridgedGatewayWithoutTheToken() throws Exception {
        assumeTrue(FakeKubelet.usable() || System.getenv("CI") != null, "the fake kubelet needs mount namespaces (root)");
        Path served = tmp.resolve("served");
        Path upstream = Git.bareRepository(served.resolve("app.git"));
        String token = "ghp_" + UUID.randomUUID().toString().replace("-", "");
        Path workspace = tmp.resolve("workspace");
        Files.createDirectories(workspace);
        FactoryConfig config = FactoryConfig.builder().provider("kubernetes")
                .providerSection("kubernetes", Map.of("namespace", "gw-" + UUID.randomUUID().toString().substring(0, 8),
                        "workingDirectory", workspace.toString()))
                .repository(new RepositoryDefaults(null, Optional.empty(), List.of(), List.of(), List.of(), List.of(), List.of(), false,
                        Optional.empty()))
                .build();
        try (MockCluster cluster = new MockCluster(tmp.resolve("volumes"));
             GitHttpServer server = new GitHttpServer(served, token);
             CapturedLogs logs = new CapturedLogs();
             SandboxFactory factory = SandboxFactory.builder().config(config).stateDirectory(tmp.resolve("state"))
                     .hostObject(KubernetesClient.class, cluster.client()).repositoryToken(() -> token).build()) {
            SessionHandle handle = factory.openSession(SessionSpec.builder("kgw-1").repository(server.url("app.git"))
                    .branch("feature/k").baseBranch("main").build());
            CommandOptions in = CommandOptions.builder().cwd(handle.checkout().orElseThrow()).build();
            assertThat(run(handle, "git symbolic-ref --short HEAD", in).stdout().strip()).isEqualTo("feature/k");

            // The pod's commands hold no token: the remote refuses them when they go around the gateway.
            String looked = run(handle, "env; git config --list", in).stdout();
            assertThat(looked).contains("ext::sh /tmp/.sandbox-factory-channels/").doesNotContain(token).doesNotContain("GH_TOKEN=");
            CommandResult around = run(handle, "GIT_CONFIG_COUNT=0 GIT_TERMINAL_PROMPT=0 git ls-remote " + server.url("app.git"), in);
            assertThat(around.exitCode()).as("a fetch around the gateway").isNotZero();

            // Fetch, and push the branch, as typed; a large file crosses the framed stream intact.
            Git.commitToMain(upstream, "later.txt", "later\n");
            assertThat(run(handle, "git fetch -q origin && git rev-parse origin/main", in).stdout().strip())
                    .isEqualTo(Git.run(upstream, "rev-parse", "refs/heads/main"));
            CommandResult push = run(handle, "head -c 3000000 /dev/urandom > big.bin && git add big.bin && git commit -qm big"
                    + " && git push -q origin HEAD", in);
            assertThat(push.exitCode()).as(push.stderr()).isZero();
            assertThat(Git.run(upstream, "rev-parse", "refs/heads/feature/k")).isEqualTo(run(handle, "git rev-parse HEAD", in).stdout().strip());
            assertThat(Git.run(upstream, "rev-parse", "feature/k:big.bin"))
                    .isEqualTo(run(handle, "git rev-parse HEAD:big.bin", in).stdout().strip());

            // Another ref is refused, upstream untouched.
            String mainBefore = Git.run(upstream, "rev-parse", "refs/heads/main");
            CommandResult refused = run(handle, "git push --force origin HEAD:main", in);
            assertThat(refused.exitCode()).isNotZero();
            assertThat(refused.stderr()).contains("refused refs/heads/main");
            assertThat(Git.run(upstream, "rev-parse", "refs/heads/main")).isEqualTo(mainBefore);

            assertThat(factory.sessionStore().journal("kgw-1", 50)).as("the journal").isNotEmpty()
                    .noneMatch(entry -> entry.toString().contains(token));
            assertThat(logs.lines()).as("log lines at every level").isNotEmpty().noneMatch(line -> line.contains(token));
            factory.retire("kgw-1", RetireMode.DESTROY);
        }
    }

    private static CommandResult run(SessionHandle handle, String command, CommandOptions options) {
        return handle.executeCommand(command, List.of(), options);
    }
}
