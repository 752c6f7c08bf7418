package io.sandboxfactory.cli;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.ErrorCoded;


/**
 * Input the user can fix (a flag, a name, a path); the command exits with {@link ExitCodes#BAD_INPUT}.
 * Code {@code BAD_INPUT} unless it restates a failure of kind bad input that has a code of its own.
 */
public final class BadInputException extends RuntimeException implements ErrorCoded {
    private static final long serialVersionUID = 1L;

    private final ErrorCode errorCode;

    public BadInputException(String message) {
        this(CliErrorCode.BAD_INPUT, message, null);
    }

    public BadInputException(ErrorCodeSupplier errorCode, String message, Throwable cause) {
        super(message, cause);
        this.errorCode = errorCode.toErrorCode();
    }

    @Override
    public ErrorCode errorCode() {
        return errorCode;
    }
}
