package io.sandboxfactory.core.session;

import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.SessionHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Counts the commands a start sends to the sandbox (every round trip goes through the start
 * event's exec, which the listener observes). A warm start of a set-up session batches its probes
 * into one script and then fetches: two round trips.
 */
class WarmStartRoundTripsTest {

    /** The budget a warm start must stay within. */
    private static final int WARM_START_BUDGET = 3;

    @TempDir
    Path tmp;

    @Test
    void aWarmStartOfASetUpSessionTakesTwoRoundTrips() throws Exception {
        Path remote = Git.bareRepository(tmp.resolve("remote/app.git"));
        Path state = tmp.resolve("state");
        SessionSpec spec = SessionSpec.builder("warm").repository(remote.toString()).branch("work")
                .setupCommands("echo set up > /dev/null").teardownCommands("true").build();
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(spec);
            assertThat(factory.listener.commands()).as("cold start: probe, clone, branch, setup, marker").hasSize(5);
        }
        // A new factory (as after a process restart) reconnects to the set-up sandbox.
        try (SessionHarness factory = new SessionHarness(state)) {
            SessionHandle handle = factory.open(spec);
            assertThat(handle.sandbox().lastStartOutcome()).contains(StartOutcome.CONNECTED);
            List<String> commands = factory.listener.commands();
            assertThat(commands).hasSizeLessThanOrEqualTo(WARM_START_BUDGET).hasSize(2);
            assertThat(commands.get(0)).contains("git --version").contains(".mastra-sandbox");
            assertThat(commands.get(1)).contains(" fetch ");

            // Opening again in the same factory reuses the instance; its hook is attached once, so a
            // restart of that instance costs the same two round trips (not four).
            SessionHandle again = factory.open(spec);
            assertThat(again.sandbox()).isSameAs(handle.sandbox());
            handle.sandbox().stop();
            factory.listener.clear();
            again.awaitStarted();
            assertThat(factory.listener.commands()).hasSize(2);

            // Retired and reopened: a new instance, the same two round trips.
            factory.retire("warm", RetireMode.STOP);
            factory.listener.clear();
            factory.open(spec);
            assertThat(factory.listener.commands()).hasSize(2);
        }
    }
}
