package io.sandboxfactory.core.gateway;

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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The Git gateway against a real authenticated remote (git http-backend behind HTTP Basic auth on
 * loopback) and the real local provider in its default isolation (bubblewrap, a network namespace of
 * its own: the sandbox cannot reach the remote, only the gateway's channel): the session clones,
 * fetches and pushes its own branch while the token is nowhere in the sandbox; a push to another
 * branch is refused with the allowed refs named; one session's channel serves no other repository
 * and is not visible to another session; retiring revokes it.
 */
class GitGatewayTest {

    @TempDir
    Path tmp;

    @Test
    void theSessionUsesGitAsTypedWithoutEverHoldingTheToken() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/bwrap")) || System.getenv("CI") != null, "bubblewrap is not installed");
        Path served = tmp.resolve("served");
        Path upstream = Git.bareRepository(served.resolve("app.git"));
        String token = "ghp_" + UUID.randomUUID().toString().replace("-", "");
        Path state = tmp.resolve("state");
        FactoryConfig config = FactoryConfig.builder().repository(new RepositoryDefaults(null, Optional.empty(), List.of(), List.of(),
                List.of(), List.of(), List.of(), false, Optional.of("agents"))).build();
        String rotated = "ghp_" + UUID.randomUUID().toString().replace("-", "");
        try (GitHttpServer server = new GitHttpServer(served, token);
             CapturedLogs logs = new CapturedLogs();
             SandboxFactory factory = SandboxFactory.builder().config(config).provider("local").stateDirectory(state)
                     .repositoryToken(() -> token).build()) {
            SessionHandle handle = factory.openSession(SessionSpec.builder("gw-1").repository(server.url("app.git"))
                    .branch("feature/gw").build());
            String checkout = handle.checkout().orElseThrow();
            CommandOptions in = CommandOptions.builder().cwd(checkout).build();
            assertThat(server.authorizedRequests()).as("the gateway fetched with the token").isPositive();
            assertThat(run(handle, "git symbolic-ref --short HEAD", in).stdout().strip()).isEqualTo("feature/gw");

            // The sandbox has no route to the remote: only the gateway reaches it.
            CommandResult direct = run(handle, "GIT_CONFIG_COUNT=0 git ls-remote " + server.url("app.git"), in);
            assertThat(direct.exitCode()).as("a direct connection from the sandbox").isNotZero();

            // The token is nowhere the session can look.
            String looked = run(handle, "env; git config --list --show-origin; cat /proc/[0-9]*/environ 2>/dev/null | tr '\\0' '\\n';"
                    + " cat ~/.git-credentials ~/.config/git/credentials 2>/dev/null; true", in).stdout();
            assertThat(looked).contains("GIT_CONFIG_COUNT").doesNotContain(token).doesNotContain("GH_TOKEN=");
            assertThat(Files.readString(Path.of(checkout, ".git/config"))).doesNotContain(token).contains(server.url("app.git"));

            // Fetch and push as typed; a fetch sees what upstream got since.
            Git.commitToMain(upstream, "later.txt", "later\n");
            assertThat(run(handle, "git fetch -q origin && git rev-parse origin/main", in).stdout().strip())
                    .isEqualTo(Git.run(upstream, "rev-parse", "refs/heads/main"));
            CommandResult push = run(handle, "echo work > work.txt && git add work.txt && git commit -qm work && git push -q origin HEAD", in);
            assertThat(push.exitCode()).as(push.stderr()).isZero();
            assertThat(Git.run(upstream, "rev-parse", "refs/heads/feature/gw")).isEqualTo(run(handle, "git rev-parse HEAD", in).stdout().strip());
            CommandResult namespaced = run(handle, "git push -q origin HEAD:agents/try-1", in);
            assertThat(namespaced.exitCode()).as(namespaced.stderr()).isZero();
            assertThat(Git.run(upstream, "branch", "--list", "agents/*")).contains("agents/try-1");

            // Any other ref is refused, naming what is allowed; upstream is untouched.
            String mainBefore = Git.run(upstream, "rev-parse", "refs/heads/main");
            CommandResult refused = run(handle, "git push --force origin HEAD:main", in);
            assertThat(refused.exitCode()).isNotZero();
            assertThat(refused.stderr()).contains("refused refs/heads/main; this session may push only refs/heads/feature/gw and"
                    + " refs/heads/agents/*");
            assertThat(Git.run(upstream, "rev-parse", "refs/heads/main")).isEqualTo(mainBefore);
            assertThat(run(handle, "git push origin HEAD:refs/tags/v1", in).exitCode()).as("a tag").isNotZero();
            assertThat(Git.run(upstream, "tag", "--list")).isEmpty();

            // The channel serves this session's repositories only, and nothing but git's two services.
            String client = clientOf(state);
            CommandResult other = run(handle, "printf '0000' | sh " + client + " git git-upload-pack 1", in);
            assertThat(other.stdout()).contains("ERR the Git gateway serves only");
            CommandResult shell = run(handle, "printf '0000' | sh " + client + " git git-upload-archive 0", in);
            assertThat(shell.stdout()).contains("ERR the Git gateway serves only");

            // Another session does not see this session's channel.
            SessionHandle second = factory.openSession(SessionSpec.builder("gw-2").repository(server.url("app.git")).branch("other").build());
            CommandResult peek = run(second, "ls " + Path.of(client).getParent(), CommandOptions.defaults());
            assertThat(peek.exitCode()).as("session gw-2 lists gw-1's channel: " + peek.stdout()).isNotZero();

            // A rotated token: the gateway fetches with the new one once the host gives it.
            server.acceptOnly(rotated);
            assertThat(run(handle, "git fetch -q origin", in).exitCode()).as("a fetch with the revoked token").isNotZero();
            factory.refreshToken("gw-1", rotated);
            CommandResult refreshed = run(handle, "git fetch -q origin", in);
            assertThat(refreshed.exitCode()).as(refreshed.stderr()).isZero();
            assertThat(run(handle, "env", in).stdout()).doesNotContain(rotated);
            assertThat(logs.lines()).as("log lines at every level").isNotEmpty().noneMatch(line -> line.contains(token) || line.contains(rotated));

            // Retiring revokes the capability.
            factory.retire("gw-1", RetireMode.STOP);
            try (Stream<Path> left = Files.list(Path.of(client).getParent())) {
                assertThat(left.toList()).as("the revoked channel keeps only its client").containsExactly(Path.of(client));
            }
            Process revoked = new ProcessBuilder("sh", client, "git", "git-upload-pack", "0").redirectErrorStream(true).start();
            revoked.getOutputStream().close();
            assertThat(new String(revoked.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8)).contains("nothing serves");
            factory.retire("gw-1", RetireMode.DESTROY);
            assertThat(Path.of(client).getParent()).as("destroy removes the channel").doesNotExist();
            try (Stream<Path> files = Files.walk(state)) {
                assertThat(files.filter(Files::isRegularFile).filter(f -> contains(f, token) || contains(f, rotated)).toList())
                        .as("files holding a token").isEmpty();
            }
        }
    }

    private static CommandResult run(SessionHandle handle, String command, CommandOptions options) {
        return handle.executeCommand(command, List.of(), options);
    }

    /** The one channel client under the state directory (session gw-1 is the only one served when this is asked). */
    private static String clientOf(Path state) throws Exception {
        try (Stream<Path> files = Files.walk(state.resolve("channels"))) {
            return files.filter(f -> f.getFileName().toString().equals("connect")).findFirst().orElseThrow().toString();
        }
    }

    private static boolean contains(Path file, String text) {
        try {
            return new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1).contains(text);
        } catch (Exception e) {
            return false;
        }
    }
}
