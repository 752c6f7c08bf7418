package io.sandboxfactory.api;

/**
 * Base of every exception the sandbox contract throws. Unchecked. {@link #errorCode()} says what
 * failed and {@link #kind()} who can fix it; {@link #code()} is its stable string (e.g. {@code
 * DESTROYED}, {@code GIT_MISSING}) that callers may switch on; the message is one human sentence.
 *
 * @since 0.1.0
 */
public class SandboxException extends RuntimeException implements ErrorCoded {
    private static final long serialVersionUID = 1L;

    private final ErrorCode errorCode;
    private final String code;

    /** @since 0.1.0 */
    public SandboxException(ErrorCode errorCode, String message) {
        this(errorCode, message, null);
    }

    /** @since 0.1.0 */
    public SandboxException(ErrorCode errorCode, String message, Throwable cause) {
        super(message, cause);
        this.errorCode = errorCode == null ? ErrorCode.SANDBOX_ERROR : errorCode;
        this.code = this.errorCode.name();
    }

    /**
     * A code given as a string, as providers built before {@link ErrorCode} do: a name of the
     * catalogue is that code; any other string is kept as {@link #code()} with {@link
     * ErrorCode#SANDBOX_ERROR} as its {@link #errorCode()}.
     *
     * @deprecated give an {@link ErrorCode}
     */
    @Deprecated
    public SandboxException(String code, String message) {
        this(code, message, null);
    }

    /** @deprecated give an {@link ErrorCode}; see {@link #SandboxException(String, String)} */
    @Deprecated
    public SandboxException(String code, String message, Throwable cause) {
        super(message, cause);
        this.errorCode = code == null ? ErrorCode.SANDBOX_ERROR : ErrorCode.named(code).orElse(ErrorCode.SANDBOX_ERROR);
        this.code = code == null || code.isBlank() ? this.errorCode.name() : code;
    }

    /** @since 0.1.0 */
    @Override
    public ErrorCode errorCode() {
        return errorCode;
    }

    /** A stable, machine-readable code for this failure: {@link #errorCode()}'s name, or a provider's own string. */
    @Override
    public String code() {
        return code;
    }
}
