package io.sandboxfactory.core.retire;

/** How a retired session's sandbox ends. */
public enum RetireMode {
    /** Stop the sandbox and keep its files (where the provider can) and the session record. */
    STOP,
    /** Destroy the sandbox with everything in it and delete the session record. */
    DESTROY;

    /** Whether the session record is deleted too. */
    public boolean deletesSession() {
        return this == DESTROY;
    }
}
