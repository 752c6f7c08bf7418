package io.sandboxfactory.provider.callback;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.ErrorKind;

/**
 * The codes only the custom provider (the host's sandbox callback) raises;
 * {@code CallbackSandboxProvider.errorCodes()} lists them.
 */
public enum CallbackErrorCode implements ErrorCodeSupplier {
    CALLBACK_MISSING(ErrorKind.BAD_INPUT,
            "Provider `custom` is selected but the host registered no sandbox callback. Register a "
            + "`SandboxCallback` with the builder, or select another provider."),
    CALLBACK_INVALID(ErrorKind.SANDBOX,
            "The host's sandbox callback returned null or a sandbox of another id. Fix the host's callback.");

    private final ErrorCode code;

    CallbackErrorCode(ErrorKind kind, String meaning) {
        this.code = new ErrorCode(name(), kind, meaning);
    }

    @Override
    public ErrorCode toErrorCode() {
        return code;
    }
}
