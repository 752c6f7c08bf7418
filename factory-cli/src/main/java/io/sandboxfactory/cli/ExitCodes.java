package io.sandboxfactory.cli;

import io.sandboxfactory.api.error.ErrorKind;


/** The exit codes of {@code factory} other than a command's own; docs/errors.md lists them by kind. */
public final class ExitCodes {
    public static final int OK = 0;
    /** The sandbox or the framework failed (clone, engine, transport, a bug). */
    public static final int INFRASTRUCTURE = 1;
    /** Bad input: unknown provider, invalid ref or session id, bad config, bad flags. */
    public static final int BAD_INPUT = 2;
    /** {@code factory daemon status}: no factory daemon runs for the state directory (as LSB's "program is not running"). */
    public static final int NO_DAEMON = 3;

    private ExitCodes() {
    }

    /** {@link #BAD_INPUT} for bad input, {@link #INFRASTRUCTURE} for a failure of the sandbox or of the machinery. */
    public static int of(ErrorKind kind) {
        return switch (kind) {
            case BAD_INPUT -> BAD_INPUT;
            case SANDBOX, INFRASTRUCTURE -> INFRASTRUCTURE;
        };
    }
}
