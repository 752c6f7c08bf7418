package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;
import io.sandboxfactory.api.SandboxStartHookException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.Sandboxes;

import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Tells a command that failed because its sandbox is gone — and so never ran, and may be replayed
 * on a fresh sandbox — from every other failure.
 *
 * <p>Guarantees: both predicates answer {@code true} only for failures that prove the command did
 * not start. A command that returned a {@link CommandResult} (any exit code, a timeout included)
 * or failed with {@link SandboxExecTransportException#opened() opened=true} is never classed as
 * replayable. Only the thrown exception itself is read (and the cause of a failed start): a cause
 * further down the chain says nothing about whether the command started. Error text is never read.
 */
final class DeadSandboxes {

    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);

    private DeadSandboxes() {
    }

    /**
     * Whether {@code error} says the sandbox itself is gone before the command started: a {@link
     * SandboxDestroyedException} (a removed container, a deleted session directory, a destroyed
     * instance), or a {@link SandboxExecTransportException} with {@code opened=false}. A start that
     * failed for one of these reasons counts too, since the command never got to run.
     */
    public static boolean isDeadSandboxError(Throwable error) {
        if (error instanceof SandboxStartHookException failedStart) {
            return isDeadSandboxError(failedStart.getCause());
        }
        if (error instanceof SandboxDestroyedException) {
            return true;
        }
        return error instanceof SandboxExecTransportException transport && !transport.opened();
    }

    /**
     * Whether {@code error} comes from a session directory that no longer exists in a sandbox that
     * is otherwise alive. Decided by probing {@code sessionDirectory} with {@code test -d} through
     * {@code sandbox} (from the sandbox's default directory), never by reading error text, because
     * a missing working directory and a missing program both surface as "No such file or
     * directory". Only failures that prove the command never started qualify: a dead sandbox
     * ({@link #isDeadSandboxError}) or a provider's {@code CWD_MISSING} refusal. A destroyed
     * sandbox answers {@code true} without a probe (its directories went with it); a probe that
     * itself finds the sandbox dead answers {@code true} as well.
     *
     * @param error what the command failed with
     * @param sandbox the sandbox the command was sent to
     * @param sessionDirectory a directory the session owns (its root or a checkout) that the
     *     command's working directory lies in; a directory of the user's own choosing proves
     *     nothing about the sandbox and must not be passed
     */
    public static boolean isMissingWorkdirError(Throwable error, CommandExecutor sandbox, String sessionDirectory) {
        Objects.requireNonNull(sandbox, "sandbox");
        Objects.requireNonNull(sessionDirectory, "sessionDirectory");
        if (isDestroyed(error)) {
            return true; // the whole sandbox is gone, and its directories with it
        }
        if (!isDeadSandboxError(error) && !isCwdMissing(error)) {
            return false; // the command may have started, or failed for a reason a directory cannot explain
        }
        try {
            CommandResult probe = sandbox.executeCommand("test -d " + Sandboxes.quote(sessionDirectory), List.of(),
                    CommandOptions.builder().timeout(PROBE_TIMEOUT).build());
            return probe.exitCode() == 1;
        } catch (RuntimeException probeFailure) {
            return isDeadSandboxError(probeFailure);
        }
    }

    /**
     * Whether {@code error} reports the physical sandbox destroyed ({@link SandboxDestroyedException},
     * directly or as the cause of a failed start), as opposed to merely unreachable.
     */
    public static boolean isDestroyed(Throwable error) {
        Throwable own = error instanceof SandboxStartHookException failedStart ? failedStart.getCause() : error;
        return own instanceof SandboxDestroyedException;
    }

    private static boolean isCwdMissing(Throwable error) {
        return error instanceof SandboxException refused && !(error instanceof SandboxExecTransportException)
                && refused.errorCode().equals(StandardErrorCode.CWD_MISSING.toErrorCode());
    }
}
