package io.sandboxfactory.tck;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static io.sandboxfactory.tck.ContractBench.PROBE_TIMEOUT;
import static io.sandboxfactory.tck.ContractBench.probe;
import static io.sandboxfactory.tck.ContractRule.TIMEOUT;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** A timeout kills the command's process tree and reports exit 124; the sandbox stays usable. */
abstract class TimeoutCases {

    /** How long the timed-out command would run on its own: a provider that ignores timeouts costs this much. */
    static final int SLEEP_SECONDS = 15;

    /**
     * Prints "gone" once the process in tck-sleep.pid no longer runs (a zombie counts as gone: it runs
     * nothing, and not every sandbox has an init that reaps it), "alive" if it still runs after a few seconds.
     */
    private static final String GONE_CHECK = "pid=$(cat tck-sleep.pid 2>/dev/null) || { echo no-pid; exit 0; }; i=0; "
            + "while [ $i -lt 50 ]; do "
            + "kill -0 \"$pid\" 2>/dev/null || { echo gone; exit 0; }; "
            + "if [ -r /proc/$pid/stat ] && sed 's/.*) //' /proc/$pid/stat | grep -q '^[ZX]'; then echo gone; exit 0; fi; "
            + "sleep 0.1; i=$((i+1)); done; echo alive";

    abstract ContractBench bench();

    private MastraSandbox<?> sandbox;

    @BeforeEach
    void createSandbox() {
        sandbox = bench().create(bench().newSessionId("timeout"));
        sandbox.start();
    }

    @Test
    @DisplayName("a timeout kills the process tree and reports exit 124 / timedOut")
    void timeoutKillsTheProcessTree() {
        CommandResult result = TIMEOUT.attempt("a command with a 2 second timeout", () -> sandbox.executeCommand(
                "rm -f tck-sleep.pid; sleep " + SLEEP_SECONDS + " & echo $! > tck-sleep.pid; echo started; wait", List.of(),
                CommandOptions.builder().timeout(Duration.ofSeconds(2)).build()));

        TIMEOUT.require(result.timedOut() && result.exitCode() == 124, () -> "a command that sleeps " + SLEEP_SECONDS
                + "s with a 2s timeout reported exitCode " + result.exitCode() + ", timedOut=" + result.timedOut()
                + ", expected 124 and true");
        TIMEOUT.require(!result.success(), () -> "a timed-out command reports success()");
        String state = probe(TIMEOUT, sandbox, GONE_CHECK).strip();
        TIMEOUT.require(!state.equals("no-pid"), () -> "the timed-out command never wrote tck-sleep.pid, so the kit cannot check its"
                + " child; the sandbox took more than 2s to run 'sleep & echo $!'");
        TIMEOUT.requireEquals("gone", state, "the state of the timed-out command's child process (checked with kill -0 by a second command)");
    }

    @Test
    @DisplayName("a command that ends before its timeout is not reported as timed out")
    void aCommandWithinItsTimeoutIsNotTimedOut() {
        CommandResult result = TIMEOUT.attempt("'exit 5' with a timeout", () -> sandbox.executeCommand("exit 5", List.of(),
                CommandOptions.builder().timeout(PROBE_TIMEOUT).build()));
        TIMEOUT.requireEquals(5, result.exitCode(), "the exit code of 'exit 5' with a generous timeout");
        TIMEOUT.require(!result.timedOut(), () -> "'exit 5' with a generous timeout is reported as timed out");
    }
}
