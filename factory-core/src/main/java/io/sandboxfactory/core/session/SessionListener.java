package io.sandboxfactory.core.session;

/**
 * Observes the session machinery, for progress output and diagnostics. Callbacks run on the thread
 * doing the work and must return quickly; an exception they throw is logged and ignored.
 */
public interface SessionListener {

    /** Does nothing. */
    SessionListener NONE = new SessionListener() { };

    /** A long phase of a start began (create, clone, checkout, setup, ...). */
    default void onPhase(String sessionId, SessionPhase phase, String detail) {
    }

    /**
     * The machinery is about to run {@code commandLine} in the sandbox of {@code sessionId}: one
     * round trip. The line never holds secrets (tokens travel in the environment).
     */
    default void onCommand(String sessionId, String commandLine) {
    }

    /**
     * Output of a command run in a phase the user reads ({@link SessionPhase#showsOutput()}): git's
     * progress while cloning, the setup command's output. Tokens are redacted.
     */
    default void onOutput(String sessionId, SessionPhase phase, String chunk) {
    }
}
