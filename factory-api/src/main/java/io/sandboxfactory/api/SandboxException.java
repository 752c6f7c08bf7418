package io.sandboxfactory.api;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.ErrorCoded;
import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * Base of every exception the sandbox contract throws. Unchecked. {@link #errorCode()} says what
 * failed and {@link #kind()} who can fix it; {@link #code()} is its stable string (e.g. {@code
 * DESTROYED}, {@code GIT_MISSING}) that callers may switch on; the message is one human sentence.
 * The code is a {@link StandardErrorCode} or one of the raising module's own (see {@link
 * ErrorCodeSupplier}).
 *
 * @since 0.1.0
 */
public class SandboxException extends RuntimeException implements ErrorCoded {
    private static final long serialVersionUID = 1L;

    private final ErrorCode errorCode;

    /** @since 0.1.0 */
    public SandboxException(ErrorCodeSupplier errorCode, String message) {
        this(errorCode, message, null);
    }

    /** @since 0.1.0 */
    public SandboxException(ErrorCodeSupplier errorCode, String message, Throwable cause) {
        super(message, cause);
        this.errorCode = (errorCode == null ? StandardErrorCode.SANDBOX_ERROR : errorCode).toErrorCode();
    }

    /** @since 0.1.0 */
    @Override
    public ErrorCode errorCode() {
        return errorCode;
    }
}
