package io.sandboxfactory.cli;

/** Input the user can fix (a flag, a name, a path); the command exits with {@link ExitCodes#BAD_INPUT}. */
public final class BadInputException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public BadInputException(String message) {
        super(message);
    }
}
