package io.sandboxfactory.api;

import java.util.List;

/**
 * Optional interface of a {@link FactorySandbox} whose sandboxes can be enumerated, so the
 * framework can sweep orphans (sandboxes whose session is unknown or retired). Lists only what
 * this provider instance made (its owner and labels), never foreign resources.
 */
public interface SandboxInventory {

    /** Every physical sandbox of this provider instance. */
    List<SandboxListing> listSandboxes();

    /** Removes one listed sandbox and everything in it; idempotent. */
    void removeSandbox(SandboxListing sandbox);
}
