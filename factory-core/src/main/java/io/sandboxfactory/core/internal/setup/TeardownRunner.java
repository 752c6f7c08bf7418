package io.sandboxfactory.core.internal.setup;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Runs a session's teardown commands: every command runs even if an earlier one failed, and a
 * failure (or an exception from the sandbox) is logged, never thrown — teardown must not stand in
 * the way of retiring or of reporting the setup failure that triggered it.
 */
public final class TeardownRunner {

    private static final Logger LOG = LoggerFactory.getLogger(TeardownRunner.class);

    private TeardownRunner() {
    }

    /**
     * Runs {@code teardown} in {@code directory}; returns whether it ran and succeeded.
     *
     * @param what names the unit in the log ({@code teardown}, {@code teardown of frontend})
     * @param redact removes secrets from output before it is logged
     */
    public static boolean run(CommandExecutor exec, String sessionId, String what, SetupCommands teardown, String directory,
                              Duration timeout, UnaryOperator<String> redact) {
        if (teardown.isEmpty()) {
            return true;
        }
        try {
            CommandResult result = exec.executeCommand(teardown.scriptRunningAllIn(directory), List.of(),
                    CommandOptions.builder().timeout(timeout).maxRetainedBytes(64 * 1024).build());
            if (result.success()) {
                LOG.debug("The {} of session '{}' succeeded", what, sessionId);
                return true;
            }
            String output = result.stderr().isBlank() ? result.stdout() : result.stderr();
            LOG.warn("The {} of session '{}' failed (exit {}{}): {}", what, sessionId, result.exitCode(),
                    result.timedOut() ? ", timed out" : "", LogText.abbreviate(redact.apply(output.strip())));
        } catch (RuntimeException e) {
            LOG.warn("The {} of session '{}' could not run: {}", what, sessionId, LogText.abbreviate(redact.apply(String.valueOf(e.getMessage()))));
        }
        return false;
    }
}
