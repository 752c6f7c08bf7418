package io.sandboxfactory.api.error;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.SandboxException;

/**
 * An exception that carries an {@link ErrorCode}. {@link SandboxException} is one; so is
 * {@link InvalidInputException}, which stays an {@link IllegalArgumentException} for callers that
 * catch that.
 *
 * @since 0.1.0
 */
public interface ErrorCoded {

    /** The failure's code. */
    ErrorCode errorCode();

    /** The code as it appears in JSON output: {@link ErrorCode#name()}. */
    default String code() {
        return errorCode().name();
    }

    /** Who can fix the failure. */
    default ErrorKind kind() {
        return errorCode().kind();
    }
}
