package io.sandboxfactory.api;

import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * A start hook failed, which fails the start: the sandbox goes to {@link SandboxStatus#ERROR}
 * and the message is {@code Sandbox '<id>' onStart hook failed: <cause message>}. The hook's own
 * exception is the cause. The next {@code start()} retries.
 *
 * @since 0.1.0
 */
public class SandboxStartHookException extends SandboxException {
    private static final long serialVersionUID = 1L;

    public SandboxStartHookException(String sandboxId, Throwable cause) {
        super(StandardErrorCode.START_HOOK_FAILED, "Sandbox '" + sandboxId + "' onStart hook failed: " + describe(cause), cause);
    }

    private static String describe(Throwable cause) {
        String message = cause.getMessage();
        return message == null || message.isBlank() ? cause.getClass().getName() : message;
    }
}
