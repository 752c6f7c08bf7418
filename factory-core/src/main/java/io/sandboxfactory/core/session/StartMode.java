package io.sandboxfactory.core.session;

/** When {@code openSession} starts the sandbox (design §5.11). */
public enum StartMode {
    /** Start before {@code openSession} returns (the default); failures surface from it. */
    EAGER,
    /** Start on the first command or file operation. */
    LAZY,
    /** Fire the start at once in the background; callers that need the sandbox join the same start. */
    BACKGROUND
}
