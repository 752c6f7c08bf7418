package io.sandboxfactory.api;

import java.util.Set;

/**
 * A configured provider instance: makes the sandbox of a session.
 *
 * <p>Guarantees every implementation must keep (the TCK checks them): {@link #create} is cheap and
 * side-effect free, nothing is provisioned before {@code start()}; sandboxes created for the same
 * session id reach the same physical sandbox (id-keyed get-or-create); {@link #capabilities()}
 * tells the truth.
 */
public interface FactorySandbox extends AutoCloseable {

    /** The provider name, as selected in config. */
    String provider();

    /** A new, unstarted sandbox instance for the session in {@code ctx}. */
    MastraSandbox<?> create(FactorySandboxContext ctx);

    /** What this provider's sandboxes can do. */
    Set<SandboxCapability> capabilities();

    /** Releases clients and threads held by this instance. Does not touch any sandbox. */
    @Override
    default void close() {
    }
}
