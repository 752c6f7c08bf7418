package io.sandboxfactory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The session states as a user sees them (docs/guide/lifecycle.md (Session states)) on the local provider:
 * {@code status}, {@code list} and their {@code --json}, and {@code open/exec/run --json}, with
 * the daemon off and on.
 */
@ParameterizedClass(name = "daemon {0}")
@EnumSource(DaemonMode.class)
class SessionStateCliIT {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Parameter
    DaemonMode mode;

    @TempDir
    Path temp;

    Path state;
    Path bare;
    CliProcess cli;

    @BeforeEach
    void setUp() throws Exception {
        state = temp.resolve("state");
        bare = GitRepos.bareWithMain(temp, "app");
        cli = mode.cli(state).in(temp);
    }

    @AfterEach
    void stopDaemons() throws Exception {
        new Daemons(state).stop();
    }

    @Test
    void aSessionIsIdleRunningWhileItsCommandRunsIdleAgainThenStoppedAndGone() throws Exception {
        CliProcess.Result open = cli.run("--json", "open", "st", "--repo", bare.toString(), "--branch", "b");
        assertThat(open.exitCode()).as(open.toString()).isZero();
        assertThat(JSON.readTree(open.stdout()).get("status").asText()).isEqualTo("idle");
        assertThat(status("st")).isEqualTo("idle");
        assertThat(cli.run("status", "st").stdout()).containsPattern("(?m)^status: +idle$");

        // Held until the test creates the file in the session's checkout (all the command can see under isolation).
        Path checkout = Path.of(JSON.readTree(open.stdout()).get("checkout").asText());
        Process held = cli.start("exec", "st", "--", "sh", "-c", "while [ ! -f release ]; do sleep 0.1; done");
        try {
            assertThat(Daemons.awaitCondition(() -> "running".equals(status("st")))).as("running while its command runs").isTrue();
            assertThat(cli.run("list").stdout()).containsPattern("st +local +running ");
            Files.writeString(checkout.resolve("release"), "");
            assertThat(held.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(held.exitValue()).isZero();
        } finally {
            held.destroyForcibly();
        }
        assertThat(status("st")).as("nothing runs once it returned").isEqualTo("idle");

        CliProcess.Result exec = cli.run("--json", "exec", "st", "--", "true");
        assertThat(JSON.readTree(exec.stdout()).get("status").asText()).isEqualTo("idle");

        CliProcess.Result stop = cli.run("--json", "retire", "st");
        assertThat(stop.exitCode()).as(stop.toString()).isZero();
        assertThat(stop.stdout()).contains("\"retired\"").doesNotContainPattern("\"[A-Z_]+\"");
        assertThat(status("st")).isEqualTo("stopped");
        assertThat(cli.run("list").stdout()).containsPattern("st +local +stopped ");

        assertThat(cli.run("retire", "st", "--delete").exitCode()).isZero();
        JsonNode sessions = JSON.readTree(cli.run("--json", "list").stdout()).get("sessions");
        assertThat(sessions).isEmpty();
    }

    @Test
    void runJsonShowsTheStateStatusShows() throws Exception {
        CliProcess.Result run = cli.run("--json", "run", "--keep", "--session", "rj", "--repo", bare.toString(), "--branch", "j", "--", "true");

        assertThat(run.exitCode()).as(run.toString()).isZero();
        assertThat(JSON.readTree(run.stdout()).get("status").asText()).isEqualTo("idle").isEqualTo(status("rj"));
    }

    @Test
    void aSessionWhoseSandboxWasRemovedFromOutsideIsAbsent() throws Exception {
        assertThat(cli.run("open", "gone", "--repo", bare.toString(), "--branch", "b").exitCode()).isZero();
        GitRepos.deleteRecursively(state.resolve("sessions/gone"));

        assertThat(status("gone")).isEqualTo("absent");
    }

    private String status(String session) {
        CliProcess.Result status = cli.run("--json", "status", session);
        assertThat(status.exitCode()).as(status.toString()).isZero();
        try {
            return JSON.readTree(status.stdout()).get("status").asText();
        } catch (java.io.IOException e) {
            throw new AssertionError(status.toString(), e);
        }
    }
}
