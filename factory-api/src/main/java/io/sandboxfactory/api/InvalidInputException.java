package io.sandboxfactory.api;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.ErrorCoded;
import io.sandboxfactory.api.error.ErrorKind;
import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * An argument broke a rule of the contract (a session id, a ref, a path, a label, a config
 * value). An {@link IllegalArgumentException}, so callers catching that still do, with an {@link
 * ErrorCode} of kind {@link ErrorKind#BAD_INPUT}, which tells it from an {@code
 * IllegalArgumentException} raised by a bug.
 *
 * @since 0.1.0
 */
public class InvalidInputException extends IllegalArgumentException implements ErrorCoded {
    private static final long serialVersionUID = 1L;

    private final ErrorCode errorCode;

    public InvalidInputException(ErrorCodeSupplier errorCode, String message) {
        this(errorCode, message, null);
    }

    public InvalidInputException(ErrorCodeSupplier errorCode, String message, Throwable cause) {
        super(message, cause);
        this.errorCode = (errorCode == null ? StandardErrorCode.INVALID_ARGUMENT : errorCode).toErrorCode();
    }

    @Override
    public ErrorCode errorCode() {
        return errorCode;
    }
}
