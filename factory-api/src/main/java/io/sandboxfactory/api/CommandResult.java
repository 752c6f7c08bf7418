package io.sandboxfactory.api;

import java.time.Duration;
import java.util.Objects;

/**
 * The outcome of a command that ran. {@code stdout}/{@code stderr} hold the newest retained
 * output (see {@link CommandOptions#maxRetainedBytes()}); the truncation flags say whether older
 * output was dropped. A timed-out command has {@code exitCode 124} and {@code timedOut=true}.
 *
 * @param command the full command line that ran, arguments quoted
 * @since 0.1.0
 */
public record CommandResult(
        int exitCode,
        String stdout,
        String stderr,
        Duration executionTime,
        boolean timedOut,
        boolean stdoutTruncated,
        boolean stderrTruncated,
        String command) {

    /** The exit code a timed-out command reports. */
    public static final int TIMEOUT_EXIT_CODE = 124;

    public CommandResult {
        stdout = Objects.requireNonNullElse(stdout, "");
        stderr = Objects.requireNonNullElse(stderr, "");
        executionTime = Objects.requireNonNullElse(executionTime, Duration.ZERO);
        command = Objects.requireNonNullElse(command, "");
    }

    /** Whether the command exited with 0. */
    public boolean success() {
        return exitCode == 0;
    }
}
