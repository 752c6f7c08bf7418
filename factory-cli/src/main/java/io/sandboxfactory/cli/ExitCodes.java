package io.sandboxfactory.cli;

/** The exit codes of {@code factory} other than a command's own. */
public final class ExitCodes {
    public static final int OK = 0;
    /** The framework or the sandbox failed (clone, engine, transport). */
    public static final int INFRASTRUCTURE = 1;
    /** Bad input: unknown provider, invalid ref or session id, bad config, bad flags. */
    public static final int BAD_INPUT = 2;

    private ExitCodes() {
    }
}
