package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.support.Polling;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Commands die with their host: a JVM running a command is killed with SIGKILL mid-command, and
 * the command's processes in the container must end without any later call of the provider, on
 * both paths: through the exec channel (its watcher sees its stdin end) and as an exec of its own
 * (the wrapper's watchdog sees the exec's stdin end).
 */
@ExtendWith(RequiresDockerEngine.class)
class DockerHostDeathIT {

    /** Bounds each wait; the watcher acts within a second, so only a broken one reaches it. */
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private DockerFixture fixture;

    @BeforeEach
    void setUp() {
        fixture = new DockerFixture();
    }

    @AfterEach
    void cleanUp() {
        fixture.close();
    }

    @Test
    void aCommandThroughTheChannelEndsWhenTheJvmThatRanItIsKilled() throws Exception {
        assertCommandDiesWithItsHost(true);
    }

    @Test
    void aCommandInAnExecOfItsOwnEndsWhenTheJvmThatRanItIsKilled() throws Exception {
        assertCommandDiesWithItsHost(false);
    }

    private void assertCommandDiesWithItsHost(boolean execChannel) throws Exception {
        String session = fixture.sessionId("host-death");
        // A distinctive command line, a child of it and one in a session of its own, all to be gone after the kill.
        String command = "sleep 317 & setsid sleep 319 & sleep 318; wait";
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        String runtime = DockerFixture.runtime();
        ProcessBuilder builder = new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                HostCommandProbe.class.getName(), fixture.owner(), System.getProperty("java.io.tmpdir"), session,
                fixture.runLabels().get(DockerFixture.RUN_LABEL), runtime == null ? "-" : runtime, command,
                Boolean.toString(execChannel));
        builder.redirectErrorStream(true);
        Process child = builder.start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line;
            do {
                line = out.readLine(); // The child may log first (SLF4J has no provider there).
            } while (line != null && !line.equals("started"));
            assertThat(line).as("the child started its sandbox").isEqualTo("started");

            DockerSandbox observer = fixture.sandbox(fixture.factory(fixture.owner(), b -> b.execChannel(false)), session);
            observer.start();
            String count = "ps -o args | grep -c '^sleep 31[789]' || true";
            assertThat(Polling.until(PATIENCE, Duration.ofMillis(50),
                    () -> observer.executeCommand(count).stdout().trim().equals("3"))).as("the command runs").isTrue();

            child.destroyForcibly(); // SIGKILL
            assertThat(child.waitFor(PATIENCE.toSeconds(), TimeUnit.SECONDS)).isTrue();
            assertThat(Polling.until(PATIENCE, Duration.ofMillis(100),
                    () -> observer.executeCommand(count).stdout().trim().equals("0"))).as("the command's processes end").isTrue();
        } finally {
            child.destroyForcibly();
        }
    }
}
