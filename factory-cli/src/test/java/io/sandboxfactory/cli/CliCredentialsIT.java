package io.sandboxfactory.cli;

import io.sandboxfactory.core.testing.GitHttpServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The CLI against a private remote: a real git http-backend on loopback behind HTTP Basic auth.
 * The token comes from {@code $GH_TOKEN} (or {@code $GITHUB_TOKEN}) and reaches git only, never the
 * output, the checkout's git config or the state directory.
 */
class CliCredentialsIT {

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

    @Test
    void ghTokenFromTheEnvironmentClonesAPrivateRepositoryAndLeavesNoTrace() throws Exception {
        Path state = temp.resolve("state");
        try (GitHttpServer server = new GitHttpServer(served, token)) {
            CliProcess.Result run = new CliProcess(state).in(temp).env("GH_TOKEN", token)
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
            CliProcess.Result fallback = new CliProcess(temp.resolve("state-a")).in(temp).env("GITHUB_TOKEN", token)
                    .run("run", "--repo", server.url("private.git"), "--branch", "work", "--", "cat", "README.md");
            assertThat(fallback.exitCode()).as(fallback.toString()).isZero();

            CliProcess.Result without = new CliProcess(temp.resolve("state-b")).in(temp).env("GH_TOKEN", "").env("GITHUB_TOKEN", "")
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
