package io.sandboxfactory.api;

/**
 * An operation on the sandbox (not a command: commands report timeouts in {@link
 * CommandResult#timedOut()}) did not finish in time.
 *
 * @since 0.1.0
 */
public class SandboxTimeoutException extends SandboxException {
    private static final long serialVersionUID = 1L;

    public SandboxTimeoutException(String message) {
        super(StandardErrorCode.TIMEOUT, message);
    }

    public SandboxTimeoutException(String message, Throwable cause) {
        super(StandardErrorCode.TIMEOUT, message, cause);
    }
}
