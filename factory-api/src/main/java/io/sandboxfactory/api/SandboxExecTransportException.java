package io.sandboxfactory.api;

import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * The transport to the sandbox failed while running a command. {@link #opened()} tells whether
 * the command may have started: {@code false} proves it never ran (safe to replay), {@code true}
 * means its effects are unknown (never replay).
 *
 * @since 0.1.0
 */
public class SandboxExecTransportException extends SandboxException {
    private static final long serialVersionUID = 1L;

    private final boolean opened;

    public SandboxExecTransportException(String message, boolean opened, Throwable cause) {
        super(StandardErrorCode.EXEC_TRANSPORT, message, cause);
        this.opened = opened;
    }

    /** Whether the command may have started before the transport failed. */
    public boolean opened() {
        return opened;
    }
}
