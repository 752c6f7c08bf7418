package io.sandboxfactory.cli.session;

import io.sandboxfactory.api.SandboxInventory;
import io.sandboxfactory.api.SandboxListing;
import io.sandboxfactory.core.SandboxFactory;

import java.util.HashMap;
import java.util.Map;

/**
 * What the provider says about each session's physical sandbox, for {@code status} and {@code
 * list}: {@code running}, {@code stopped}, or {@code missing}; {@code unknown} for providers that
 * cannot list their sandboxes.
 */
public final class SandboxStates {

    private final Map<String, SandboxListing> bySession = new HashMap<>();
    private final boolean known;

    public SandboxStates(SandboxFactory factory) {
        this.known = factory.factorySandbox() instanceof SandboxInventory;
        if (known) {
            for (SandboxListing listing : ((SandboxInventory) factory.factorySandbox()).listSandboxes()) {
                bySession.put(listing.sessionId(), listing);
            }
        }
    }

    public String of(String sessionId, String provider, String currentProvider) {
        if (!known || (provider != null && !provider.equals(currentProvider))) {
            return "unknown";
        }
        SandboxListing listing = bySession.get(sessionId);
        if (listing == null) {
            return "missing";
        }
        return listing.running() ? "running" : "stopped";
    }
}
