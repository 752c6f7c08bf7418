package io.sandboxfactory.provider.support;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.api.testing.DeadHosts;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The reaper's scripts, run by the host's real {@code /bin/sh} over this host's {@code /proc} (no sandbox needed). */
class DeadHostReaperTest {

    @Test
    void endsTheCommandsOfAHostThatIsProvablyGoneAndNoneOfALiveHost() throws Exception {
        HostProcess dead = DeadHosts.exited();
        HostProcess live = HostProcess.current();
        Process ofDead = commandOf(dead);
        Process ofLive = commandOf(live);
        try {
            List<HostProcess> reaped = DeadHostReaper.reap("session-1", DeadHostReaperTest::runHere);

            assertThat(reaped).contains(dead).doesNotContain(live);
            assertThat(ofDead.waitFor(30, TimeUnit.SECONDS)).as("the dead host's command ended").isTrue();
            assertThat(ofLive.isAlive()).as("a live host's command is never touched").isTrue();
        } finally {
            ofDead.destroyForcibly();
            ofLive.destroyForcibly();
        }
    }

    private static Process commandOf(HostProcess host) throws IOException {
        ProcessBuilder builder = new ProcessBuilder("sleep", "600");
        builder.environment().putAll(CommandScripts.markers(CommandScripts.newToken(), host));
        return builder.start();
    }

    /** What a sandbox's command path does with the reaper's requests, here on this host. */
    private static CommandResult runHere(CommandRequest request) {
        try {
            Process process = new ProcessBuilder("/bin/sh", "-c", request.commandLine()).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return new CommandResult(process.waitFor(), output, "", Duration.ZERO, false, false, false, request.commandLine());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
