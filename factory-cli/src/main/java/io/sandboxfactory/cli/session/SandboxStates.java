package io.sandboxfactory.cli.session;

import io.sandboxfactory.api.SandboxInventory;
import io.sandboxfactory.api.SandboxListing;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.store.SessionRecord;

import java.util.HashMap;
import java.util.Map;

/**
 * What the provider says about each session's physical sandbox, for {@code status} and {@code
 * list}: its state — {@code running}, {@code stopped}, or {@code missing}; {@code unknown} for
 * providers that cannot list their sandboxes — and the isolation the provider gives it ({@link
 * io.sandboxfactory.api.FactorySandbox#isolation()}). A session of another provider than this
 * invocation's is {@code unknown} for both: this factory cannot see its sandbox.
 */
public final class SandboxStates {

    private static final String UNKNOWN = "unknown";

    private final Map<String, SandboxListing> bySession = new HashMap<>();
    private final boolean known;
    private final String currentProvider;
    private final String isolation;

    public SandboxStates(SandboxFactory factory) {
        this.known = factory.factorySandbox() instanceof SandboxInventory;
        this.currentProvider = factory.providerName();
        this.isolation = factory.factorySandbox().isolation();
        if (known) {
            for (SandboxListing listing : ((SandboxInventory) factory.factorySandbox()).listSandboxes()) {
                bySession.put(listing.sessionId(), listing);
            }
        }
    }

    /** The session's record as {@code status} and {@code list} show it, with its sandbox's state and isolation. */
    public Map<String, Object> describe(SessionRecord record) {
        boolean ours = record.definition().provider().map(currentProvider::equals).orElse(true);
        return SessionJson.record(record, ours ? state(record.sessionId()) : UNKNOWN, ours ? isolation : UNKNOWN);
    }

    private String state(String sessionId) {
        if (!known) {
            return UNKNOWN;
        }
        SandboxListing listing = bySession.get(sessionId);
        if (listing == null) {
            return "missing";
        }
        return listing.running() ? "running" : "stopped";
    }
}
