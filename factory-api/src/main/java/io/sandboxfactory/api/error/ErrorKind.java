package io.sandboxfactory.api.error;

/**
 * Who can fix a failure, which is what a caller decides on: the CLI's exit code comes from it.
 *
 * @since 0.1.0
 */
public enum ErrorKind {
    /** The caller's input broke a rule (a name, a ref, a path, a flag, the config): change the input and retry. */
    BAD_INPUT,
    /** The sandbox, or what runs in it, failed or refused the operation (a destroyed sandbox, a failed setup). */
    SANDBOX,
    /** The machinery around the sandbox failed: the engine, the cluster, the network, the session store, a bug. */
    INFRASTRUCTURE
}
