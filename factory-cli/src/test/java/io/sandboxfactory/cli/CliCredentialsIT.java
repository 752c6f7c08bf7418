package io.sandboxfactory.cli;

import io.sandboxfactory.core.testing.GitHttpServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI against a private remote: a real git http-backend on loopback behind HTTP Basic auth.
 * The token comes from {@code $GH_TOKEN} (or {@code $GITHUB_TOKEN}) and stays in the factory: the
 * session (in its own network namespace, no route to the remote) clones and fetches through the Git
 * gateway of the CLI process or the daemon; the token never reaches the session's commands, the
 * output, the checkout's git config or the state directory (the daemon's log included); with the
 * factory daemon off and on.
 */
@ParameterizedClass(name = "daemon {0}")
@EnumSource(DaemonMode.class)
class CliCredentialsIT {

    @Parameter
    DaemonMode mode;

    @TempDir
    Path temp;

    Path served;
    String token;

    @BeforeEach
    void remote() throws Exception {
        served = temp.resolve("served");
        Files.createDirectories(served);
        GitRepos.bareWithMain(served, "private");
        token = "ghp_cli" + UUID.randomUUID().toString().replace("-", "");
    }

    @AfterEach
    void stopDaemons() throws Exception {
        for (String state : new String[] {"state", "state-a", "state-b"}) {
            new Daemons(temp.resolve(state)).stop();
        }
    }

    /** Sessions in the local provider's boundary, without network: only the gateway reaches the remote. */
    private CliProcess cli(Path state) {
        return mode.cli(state).in(temp);
    }

    @Test
    void anOpenSessionFetchesWithTheTokenOfEachCommandsCallerAndLeavesNoTrace() throws Exception {
        Path state = temp.resolve("state");
        try (GitHttpServer server = new GitHttpServer(served, token)) {
            CliProcess cli = cli(state).env("GH_TOKEN", token);
            CliProcess.Result open = cli.run("open", "p2", "--repo", server.url("private.git"), "--branch", "work");
            CliProcess.Result fetch = cli.run("exec", "p2", "--", "sh", "-c", "git fetch --quiet origin && echo fetched-with-token");

            assertThat(open.exitCode()).as(open.toString()).isZero();
            assertThat(fetch.exitCode()).as(fetch.toString()).isZero();
            assertThat(fetch.stdout()).isEqualTo("fetched-with-token\n");
            // The session's commands have no token to print.
            CliProcess.Result printed = cli.run("--json", "exec", "p2", "--", "sh", "-c", "printf '%s\\n' \"${GH_TOKEN:-no token}\"");
            assertThat(printed.exitCode()).as(printed.toString()).isZero();
            assertThat(printed.stdout()).as(printed.toString()).contains("\"stdout\" : \"no token\\n\"");
            assertThat(open.stdout() + open.stderr() + fetch.stdout() + fetch.stderr() + printed.stdout() + printed.stderr())
                    .doesNotContain(token);
            assertThat(filesHolding(state, token)).as("files under the state directory holding the token").isEmpty();
        }
    }

    @Test
    void ghTokenFromTheEnvironmentClonesAPrivateRepositoryAndLeavesNoTrace() throws Exception {
        Path state = temp.resolve("state");
        try (GitHttpServer server = new GitHttpServer(served, token)) {
            CliProcess.Result run = cli(state).env("GH_TOKEN", token)
                    .run("run", "--keep", "--session", "p1", "--repo", server.url("private.git"), "--branch", "work",
                            "--", "sh", "-c", "cat README.md; git fetch --quiet origin && echo fetched-with-token");

            assertThat(run.exitCode()).as(run.toString()).isZero();
            assertThat(run.stdout()).isEqualTo("hello from private\nfetched-with-token\n");
            assertThat(server.authorizedRequests()).isPositive();
            assertThat(run.stdout() + run.stderr()).doesNotContain(token);
            assertThat(filesHolding(state, token)).as("files under the state directory holding the token").isEmpty();
        }
    }

    @Test
    void githubTokenIsTheFallbackAndWithoutAnyTokenTheCloneFailsAsInfrastructure() throws Exception {
        try (GitHttpServer server = new GitHttpServer(served, token)) {
            CliProcess.Result fallback = cli(temp.resolve("state-a")).env("GITHUB_TOKEN", token)
                    .run("run", "--repo", server.url("private.git"), "--branch", "work", "--", "cat", "README.md");
            assertThat(fallback.exitCode()).as(fallback.toString()).isZero();

            CliProcess.Result without = cli(temp.resolve("state-b")).env("FACTORY_PROVIDERS_LOCAL_NETWORK", "host").env("GH_TOKEN", "")
                    .env("GITHUB_TOKEN", "")
                    .run("run", "--repo", server.url("private.git"), "--branch", "work", "--", "cat", "README.md");
            assertThat(without.exitCode()).as(without.toString()).isEqualTo(ExitCodes.INFRASTRUCTURE);
            assertThat(without.stderr()).contains("Cloning");
        }
    }

    private static java.util.List<Path> filesHolding(Path root, String secret) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(Files::isRegularFile).filter(file -> {
                try {
                    return new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1).contains(secret);
                } catch (IOException e) {
                    return false;
                }
            }).toList();
        }
    }
}
