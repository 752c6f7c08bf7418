package io.sandboxfactory.cli.session;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.capability.SandboxInventory;
import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.store.api.SessionRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Gathers what {@link SessionState} decides from, for {@code status}, {@code list} and the MCP
 * tools: the commands the store knows running, and what each session's provider lists — the
 * command's own provider, or another one opened for the purpose ({@link OtherProviders}), asked once
 * per provider. A provider that cannot be opened or listed makes its sessions {@code unreachable}.
 */
public final class SessionStates implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SessionStates.class);

    private final SandboxFactory factory;
    private final OtherProviders others;
    private final Set<String> running;
    private final Map<String, Provider> providers = new HashMap<>();

    /** One provider as seen from here: its isolation and listings, or unreachable. */
    private record Provider(Optional<SandboxFactory> opened, Optional<String> isolation, Optional<Map<String, SandboxListing>> listings,
                            boolean reachable) {
    }

    public SessionStates(SandboxFactory factory, OtherProviders others) {
        this.factory = factory;
        this.others = others;
        this.running = factory.sessionStore().sessionsRunningCommands(Instant.now());
    }

    /** The session's record as {@code status} and {@code list} show it, with its state and its provider's isolation. */
    public Map<String, Object> describe(SessionRecord record) {
        Provider provider = providers.computeIfAbsent(record.definition().provider().orElse(factory.providerName()), this::ask);
        SessionState.Sighting sighting;
        if (!provider.reachable()) {
            sighting = new SessionState.Unreachable();
        } else if (provider.listings().isEmpty()) {
            sighting = new SessionState.Unlisted();
        } else {
            SandboxListing listing = provider.listings().get().get(record.sessionId());
            sighting = listing == null ? new SessionState.NotListed() : new SessionState.Listed(listing.state());
        }
        SessionState state = SessionState.of(record, sighting, running.contains(record.sessionId()), setupFailed(record));
        return SessionJson.record(record, state.toString(), provider.isolation().orElse(null));
    }

    /** The state of a session this process holds open (after its command, if any). */
    public static SessionState of(SandboxFactory factory, SessionHandle handle) {
        boolean running = factory.sessionStore().sessionsRunningCommands(Instant.now()).contains(handle.sessionId());
        return SessionState.of(handle.sandbox().status(), running);
    }

    private boolean setupFailed(SessionRecord record) {
        return record.setupStates().containsValue("failed") || !factory.sessionStore().failedSetupCommands(record.sessionId()).isEmpty();
    }

    private Provider ask(String name) {
        Optional<SandboxFactory> opened = Optional.empty();
        try {
            if (!name.equals(factory.providerName())) {
                opened = Optional.of(others.open(factory, name));
            }
            FactorySandbox sandboxes = opened.orElse(factory).factorySandbox();
            Optional<Map<String, SandboxListing>> listings = Optional.empty();
            if (sandboxes instanceof SandboxInventory inventory) {
                Map<String, SandboxListing> bySession = new HashMap<>();
                inventory.listSandboxes().forEach(listing -> bySession.put(listing.sessionId(), listing));
                listings = Optional.of(bySession);
            }
            return new Provider(opened, Optional.of(sandboxes.isolation()), listings, true);
        } catch (RuntimeException e) {
            // Said by the state (unreachable); why, for --verbose.
            LOG.debug("Provider '{}' could not be asked about its sessions: {}", name, e.getMessage(), e);
            return new Provider(opened, Optional.empty(), Optional.empty(), false);
        }
    }

    /** Closes the factories opened for other providers. */
    @Override
    public void close() {
        for (Provider provider : providers.values()) {
            provider.opened().ifPresent(SandboxFactory::close);
        }
    }
}
