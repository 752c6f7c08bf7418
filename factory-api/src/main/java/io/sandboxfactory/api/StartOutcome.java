package io.sandboxfactory.api;

/**
 * How a start acquired its physical sandbox.
 *
 * @since 0.1.0
 */
public enum StartOutcome {
    /** A new physical sandbox was provisioned. */
    CREATED,
    /** An existing physical sandbox was found and reconnected. */
    CONNECTED,
    /** The provider cannot tell (for example a host-supplied sandbox). */
    UNKNOWN
}
