package io.sandboxfactory.api;

/**
 * Base of every exception the sandbox contract throws. Unchecked. {@link #code()} is a stable,
 * machine-readable code (e.g. {@code DESTROYED}, {@code GIT_MISSING}) that callers may switch on;
 * the message is one human sentence.
 *
 * @since 0.1.0
 */
public class SandboxException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String code;

    public SandboxException(String code, String message) {
        this(code, message, null);
    }

    public SandboxException(String code, String message, Throwable cause) {
        super(message, cause);
        this.code = code == null || code.isBlank() ? "SANDBOX_ERROR" : code;
    }

    /** A stable, machine-readable code for this failure. */
    public String code() {
        return code;
    }
}
