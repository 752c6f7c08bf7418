package io.sandboxfactory.api;

import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * The sandbox is not in a state that can serve the request (for example it is stopped or stopping).
 *
 * @since 0.1.0
 */
public class SandboxNotReadyException extends SandboxException {
    private static final long serialVersionUID = 1L;

    public SandboxNotReadyException(String message) {
        super(StandardErrorCode.NOT_READY, message);
    }

    public SandboxNotReadyException(String message, Throwable cause) {
        super(StandardErrorCode.NOT_READY, message, cause);
    }
}
