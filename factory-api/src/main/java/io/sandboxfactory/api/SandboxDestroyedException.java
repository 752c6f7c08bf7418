package io.sandboxfactory.api;

import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * The sandbox itself is gone: destroyed through this instance, or removed from outside (a deleted
 * container or session directory). A command that fails with this exception never ran, so it is
 * safe to replay on a fresh sandbox.
 *
 * @since 0.1.0
 */
public class SandboxDestroyedException extends SandboxException {
    private static final long serialVersionUID = 1L;

    public SandboxDestroyedException(String message) {
        super(StandardErrorCode.DESTROYED, message);
    }

    public SandboxDestroyedException(String message, Throwable cause) {
        super(StandardErrorCode.DESTROYED, message, cause);
    }
}
