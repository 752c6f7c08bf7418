package io.sandboxfactory.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The session states on the docker provider (a real engine, no network), in the same words as on
 * the local one; a docker session seen from a local invocation is asked of the docker provider, or
 * is {@code unreachable} when its engine cannot be reached.
 */
class SessionStateDockerIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path temp;

    Path state;
    Path config;
    Path bare;
    String session;
    CliProcess cli;

    @BeforeEach
    void setUp() throws Exception {
        DockerEngineGate.require();
        state = temp.resolve("state");
        Path repos = temp.resolve("repos");
        Files.createDirectories(repos);
        bare = GitRepos.bareWithMain(repos, "app");
        String run = UUID.randomUUID().toString().substring(0, 8);
        session = "states-" + run;
        config = DockerTestConfig.write(temp, "it-cli-states-" + run, repos);
        cli = new CliProcess(state).in(temp);
    }

    @AfterEach
    void removeContainer() {
        // A test that failed half-way leaves no container behind.
        cli.run("--config", config.toString(), "retire", session, "--delete");
    }

    @Test
    void aDockerSessionGoesIdleRunningIdleStoppedAbsentLikeALocalOne() throws Exception {
        CliProcess.Result open = cli.run("--config", config.toString(), "--json", "open", session, "--repo", bare.toString(), "--branch", "b");
        assertThat(open.exitCode()).as(open.toString()).isZero();
        assertThat(JSON.readTree(open.stdout()).get("status").asText()).isEqualTo("idle");
        assertThat(status()).isEqualTo("idle");

        // Held until a second command creates the file in the checkout.
        Process held = cli.start("--config", config.toString(), "exec", session, "--", "sh", "-c", "while [ ! -f release ]; do sleep 0.1; done");
        try {
            assertThat(Daemons.awaitCondition(() -> "running".equals(status()))).as("running while its command runs").isTrue();
            assertThat(cli.run("--config", config.toString(), "exec", session, "--", "touch", "release").exitCode()).isZero();
            assertThat(held.waitFor(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            held.destroyForcibly();
        }
        assertThat(status()).isEqualTo("idle");

        // Seen from a local invocation: the docker provider is asked, or said unreachable.
        CliProcess.Result fromLocal = cli.run("--config", config.toString(), "--provider", "local", "list");
        assertThat(fromLocal.stdout()).as(fromLocal.toString()).containsPattern(session + " +docker +idle ");
        CliProcess.Result engineDown = new CliProcess(state).in(temp).env("FACTORY_PROVIDERS_DOCKER_HOST", "tcp://127.0.0.1:1").run("--config", config.toString(), "--provider", "local", "--json", "status", session);
        assertThat(JSON.readTree(engineDown.stdout()).get("status").asText()).as(engineDown.toString()).isEqualTo("unreachable");

        assertThat(cli.run("--config", config.toString(), "retire", session).exitCode()).isZero();
        assertThat(status()).isEqualTo("stopped");

        String container = JSON.readTree(cli.run("--config", config.toString(), "--json", "status", session).stdout()).get("sandboxId").asText();
        Process remove = new ProcessBuilder("docker", "rm", "-f", container).redirectErrorStream(true).start();
        assertThat(remove.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(remove.exitValue()).isZero();
        assertThat(status()).as("removed outside the factory").isEqualTo("absent");
    }

    private String status() {
        CliProcess.Result status = cli.run("--config", config.toString(), "--json", "status", session);
        assertThat(status.exitCode()).as(status.toString()).isZero();
        try {
            return JSON.readTree(status.stdout()).get("status").asText();
        } catch (java.io.IOException e) {
            throw new AssertionError(status.toString(), e);
        }
    }
}
