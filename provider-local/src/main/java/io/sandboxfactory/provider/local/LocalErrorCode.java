package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.ErrorKind;

/**
 * The codes only the local provider raises; {@code LocalSandboxProvider.errorCodes()} lists them.
 */
public enum LocalErrorCode implements ErrorCodeSupplier {
    FOREIGN_DIRECTORY(ErrorKind.SANDBOX,
            "A local session directory exists but was not made by the local provider. Remove it or use "
            + "another session id.");

    private final ErrorCode code;

    LocalErrorCode(ErrorKind kind, String meaning) {
        this.code = new ErrorCode(name(), kind, meaning);
    }

    @Override
    public ErrorCode toErrorCode() {
        return code;
    }
}
