package io.sandboxfactory.core.retire;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxInventory;
import io.sandboxfactory.api.SandboxListing;
import io.sandboxfactory.core.session.SessionMemo;
import io.sandboxfactory.core.store.LeaseAttempt;
import io.sandboxfactory.core.store.LeaseOwner;
import io.sandboxfactory.core.store.SessionRecord;
import io.sandboxfactory.core.store.SessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Removes orphaned sandboxes: those the provider lists whose session the store does not know (it
 * was destroyed, or an open crashed before it registered). Live sessions are never touched: a
 * session with a record, one this process holds, and one whose lease another process holds (an
 * open in flight) are all skipped. The sweeper takes the session's lease while it removes, so an
 * open cannot race it.
 */
public final class OrphanSweeper {

    private static final Logger LOG = LoggerFactory.getLogger(OrphanSweeper.class);
    private static final Duration LEASE = Duration.ofSeconds(30);

    private final FactorySandbox factorySandbox;
    private final SessionStore store;
    private final SessionMemo memo;
    private final LeaseOwner owner = LeaseOwner.forThisProcess();

    public OrphanSweeper(FactorySandbox factorySandbox, SessionStore store, SessionMemo memo) {
        this.factorySandbox = factorySandbox;
        this.store = store;
        this.memo = memo;
    }

    /** Removes every orphan and returns what was removed. */
    public List<SandboxListing> sweep() {
        if (!(factorySandbox instanceof SandboxInventory inventory)) {
            throw new SandboxException("SWEEP_UNSUPPORTED", "Sandbox provider '" + factorySandbox.provider()
                    + "' cannot list its sandboxes, so it cannot be swept.");
        }
        List<SandboxListing> removed = new ArrayList<>();
        for (SandboxListing listing : inventory.listSandboxes()) {
            if (isLive(listing.sessionId())) {
                continue;
            }
            LeaseAttempt lease = store.tryAcquireLease(listing.sessionId(), owner, LEASE);
            if (!lease.acquired()) {
                LOG.info("Not sweeping sandbox {} of session '{}': an open holds its lease until {}.", listing.sandboxId(),
                        listing.sessionId(), lease.expiresAt());
                continue;
            }
            try {
                // Checked again under the lease: an open that registered meanwhile makes it live.
                if (isLive(listing.sessionId())) {
                    continue;
                }
                inventory.removeSandbox(listing);
                removed.add(listing);
                LOG.info("Swept orphaned sandbox {} of session '{}'.", listing.sandboxId(), listing.sessionId());
            } finally {
                store.releaseLease(listing.sessionId(), owner.id());
            }
        }
        return removed;
    }

    private boolean isLive(String sessionId) {
        if (memo.peek(sessionId).isPresent()) {
            return true;
        }
        Optional<SessionRecord> record = store.find(sessionId);
        return record.isPresent() && record.get().definition().provider().map(factorySandbox.provider()::equals).orElse(true);
    }
}
