package io.sandboxfactory.api;

/**
 * Where a sandbox instance is in its lifecycle, as seen by this process.
 *
 * <p>{@link #PENDING} is the state of a freshly created instance: nothing has been provisioned
 * yet. {@link #ERROR} means the last start, stop or destroy failed; a later {@code start()} retries
 * (failures are never latched). {@link #DESTROYED} is final for the instance.
 *
 * @since 0.1.0
 */
public enum SandboxStatus {
    PENDING,
    STARTING,
    RUNNING,
    STOPPING,
    STOPPED,
    DESTROYING,
    DESTROYED,
    ERROR
}
