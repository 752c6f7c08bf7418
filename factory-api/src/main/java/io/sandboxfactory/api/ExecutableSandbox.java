package io.sandboxfactory.api;

import java.util.Optional;

/**
 * What every sandbox is: an isolated place, keyed by a session id, that can be started, stopped
 * and destroyed, and that runs commands. The framework runs git and filesystem operations in a
 * session through {@link #executeCommand}, so every provider's sandboxes run commands.
 *
 * <p>Guarantees: {@link #id()} is the logical id (the session id) and never changes; {@link
 * #start()} is idempotent on a running sandbox; {@link #stop()} and {@link #destroy()} are
 * idempotent; {@code executeCommand} starts the sandbox lazily when it is not running, and waits
 * for an in-flight start (including its start hooks) before it runs anything. Implementations are
 * thread-safe.
 *
 * @since 0.1.0
 */
public interface ExecutableSandbox extends CommandExecutor {

    /** The logical id of this sandbox, equal to the session id it serves. */
    String id();

    /** A human-readable name, for logs and listings. */
    String name();

    /** The current lifecycle status as seen by this process. */
    SandboxStatus status();

    /** Provisions (or reconnects to) the sandbox and runs its start hooks; returns when it is running. */
    void start();

    /** Stops the sandbox; files survive when the provider declares {@link SandboxCapability#FILES_SURVIVE_STOP}. */
    void stop();

    /** Removes the sandbox and everything in it. Final for this instance. */
    void destroy();

    /**
     * The working directory configured for this sandbox, as a path <em>inside</em> the sandbox (not
     * a host path). Empty when the provider has none configured; the framework then probes it.
     */
    Optional<String> workingDirectory();
}
