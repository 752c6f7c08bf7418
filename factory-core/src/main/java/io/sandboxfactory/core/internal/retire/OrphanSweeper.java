package io.sandboxfactory.core.internal.retire;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.capability.SandboxInventory;
import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.internal.session.SessionMemo;
import io.sandboxfactory.store.api.LeaseAttempt;
import io.sandboxfactory.store.api.LeaseOwner;
import io.sandboxfactory.store.api.SessionRecord;
import io.sandboxfactory.store.api.SessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Removes orphaned sandboxes: those the provider lists that no live session owns. A sandbox is an
 * orphan when
 * <ul>
 *   <li>the store does not know its session (for this provider): it was destroyed, or its record lost; or</li>
 *   <li>its session's first open crashed: no start ever handed the sandbox to a user (the record has
 *       no {@link SessionRecord#materializedAt()}) and the session's lease was left behind by an owner
 *       that expired or is provably gone. A failed setup does hand the sandbox over (it stays usable),
 *       and a failed open releases its lease, so neither of those is swept.</li>
 * </ul>
 * Never touched: a session this process holds, a session whose lease a live process holds (an open
 * in flight), and any session that a start ever handed to a user — opened and stopped, or held by
 * another live process — even if a later reopen of it crashed. The sweeper holds the session's lease
 * while it decides and removes, so an open cannot race it; the crashed owner's lease is released
 * with it. The session record of a crashed first open goes with its sandbox, and {@link
 * #forgetUnfinishedOpens} deletes those whose crash left no sandbox: a session whose first open never
 * completed is not a session (a failed open that did not crash undoes itself, see {@code SandboxFactory.openSession}).
 */
public final class OrphanSweeper {

    private static final Logger LOG = LoggerFactory.getLogger(OrphanSweeper.class);
    private static final Duration LEASE = Duration.ofSeconds(30);

    private final String providerName;
    private final FactorySandbox factorySandbox;
    private final SessionStore store;
    private final SessionMemo memo;
    private final LeaseOwner owner = LeaseOwner.forThisProcess();

    public OrphanSweeper(String providerName, FactorySandbox factorySandbox, SessionStore store, SessionMemo memo) {
        this.providerName = providerName;
        this.factorySandbox = factorySandbox;
        this.store = store;
        this.memo = memo;
    }

    /** Removes every orphan and returns what was removed. */
    public List<SandboxListing> sweep() {
        if (!(factorySandbox instanceof SandboxInventory inventory)) {
            throw new SandboxException(StandardErrorCode.SWEEP_UNSUPPORTED, "Sandbox provider '" + providerName
                    + "' cannot list its sandboxes, so it cannot be swept.");
        }
        List<SandboxListing> removed = new ArrayList<>();
        for (SandboxListing listing : inventory.listSandboxes()) {
            String sessionId = listing.sessionId();
            if (memo.peek(sessionId).isPresent() || handedToAUser(sessionId)) {
                continue;
            }
            LeaseAttempt lease = store.tryAcquireLease(sessionId, owner, LEASE);
            if (!lease.acquired()) {
                LOG.info("Not sweeping sandbox {} of session '{}': {} holds its lease until {}.", listing.sandboxId(),
                        sessionId, lease.holder(), lease.expiresAt());
                continue;
            }
            try {
                // Decided under the lease: an open that registered or finished meanwhile makes it live.
                Optional<String> why = orphaned(sessionId, lease);
                if (why.isEmpty() || memo.peek(sessionId).isPresent()) {
                    continue;
                }
                inventory.removeSandbox(listing);
                removed.add(listing);
                if (ownRecord(sessionId).isPresent()) {
                    store.delete(sessionId, lease.fence());
                }
                LOG.info("Swept orphaned sandbox {} of session '{}': {}.", listing.sandboxId(), sessionId, why.get());
            } finally {
                store.releaseLease(sessionId, owner.id(), lease.fence());
            }
        }
        return removed;
    }

    /**
     * Deletes the records of this provider's sessions whose first open crashed before it made a
     * sandbox (or after {@link #sweep} removed it): no start completed and the lease was left
     * behind by an owner that expired or is provably gone. A session opened lazily never took a
     * lease, and one being opened holds it: neither is touched. Returns their ids, in order.
     */
    public List<String> forgetUnfinishedOpens() {
        List<String> forgotten = new ArrayList<>();
        for (SessionRecord record : store.list()) {
            String sessionId = record.sessionId();
            if (memo.peek(sessionId).isPresent() || ownRecord(sessionId).isEmpty() || record.materializedAt().isPresent()) {
                continue;
            }
            LeaseAttempt lease = store.tryAcquireLease(sessionId, owner, LEASE);
            if (!lease.acquired()) {
                continue;
            }
            try {
                Optional<LeaseOwner> crashed = lease.replaced();
                if (crashed.isPresent() && ownRecord(sessionId).filter(r -> r.materializedAt().isEmpty()).isPresent()
                        && memo.peek(sessionId).isEmpty() && store.delete(sessionId, lease.fence())) {
                    forgotten.add(sessionId);
                    LOG.info("Forgot session '{}': its first open crashed ({} left its lease behind) before it completed.",
                            sessionId, crashed.get());
                }
            } finally {
                store.releaseLease(sessionId, owner.id(), lease.fence());
            }
        }
        return forgotten;
    }

    /** Whether a start of this provider ever handed the session's sandbox to a user. */
    private boolean handedToAUser(String sessionId) {
        return ownRecord(sessionId).flatMap(SessionRecord::materializedAt).isPresent();
    }

    /** Why the session's sandbox is an orphan, if it is one. */
    private Optional<String> orphaned(String sessionId, LeaseAttempt lease) {
        Optional<SessionRecord> record = ownRecord(sessionId);
        if (record.isEmpty()) {
            return Optional.of("the store does not know its session");
        }
        if (record.get().materializedAt().isPresent()) {
            return Optional.empty();
        }
        return lease.replaced().map(crashed -> "its first open crashed (" + crashed + " left its lease behind)");
    }

    private Optional<SessionRecord> ownRecord(String sessionId) {
        return store.find(sessionId).filter(r -> r.definition().provider().map(providerName::equals).orElse(true));
    }
}
