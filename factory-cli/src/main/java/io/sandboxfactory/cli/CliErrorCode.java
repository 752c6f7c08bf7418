package io.sandboxfactory.cli;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.ErrorKind;

/**
 * The codes only the CLI gives: a refused command line, and a failure that carries no code (a
 * bug). The CLI's exit code comes from a code's kind ({@link ExitCodes}).
 */
public enum CliErrorCode implements ErrorCodeSupplier {
    BAD_INPUT(ErrorKind.BAD_INPUT,
            "The CLI refused a flag or argument combination (a missing option, a malformed `SESSION:PATH`). "
            + "Change the command line as the message says; `--help` shows the options."),
    FAILED(ErrorKind.INFRASTRUCTURE,
            "An exception without a code: a bug. Rerun with `--verbose` for the stack trace and report it.");

    /** How discovery names the CLI when a provider's or store's code takes one of these names. */
    public static final String OWNER = "the factory command (CliErrorCode)";

    private final ErrorCode code;

    CliErrorCode(ErrorKind kind, String meaning) {
        this.code = new ErrorCode(name(), kind, meaning);
    }

    @Override
    public ErrorCode toErrorCode() {
        return code;
    }
}
