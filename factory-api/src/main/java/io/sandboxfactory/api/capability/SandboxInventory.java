package io.sandboxfactory.api.capability;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.ProviderContext;
import java.util.List;

/**
 * Optional interface of a {@link FactorySandbox} whose sandboxes can be enumerated, so the
 * framework can sweep orphans (sandboxes whose session is unknown or retired). Lists only what
 * this provider instance made (its owner and labels), never foreign resources.
 *
 * <p>{@link #listSandboxes()} lists every physical sandbox that exists now and that this
 * provider made for this {@link ProviderContext#owner()}, running or stopped, each with the
 * session id it was made for and the same {@code sandboxId} the sandbox reports; a sandbox stops
 * being listed as soon as {@code destroy()} or {@link #removeSandbox} removed it (the kit checks
 * both). It lists nothing it did not make, even with a similar name.
 *
 * @since 0.1.0
 */
public interface SandboxInventory {

    /** Every physical sandbox of this provider instance. */
    List<SandboxListing> listSandboxes();

    /** Removes one listed sandbox and everything in it; idempotent. */
    void removeSandbox(SandboxListing sandbox);
}
