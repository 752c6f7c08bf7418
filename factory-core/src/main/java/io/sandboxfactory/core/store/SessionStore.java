package io.sandboxfactory.core.store;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Durable session state shared by every process using the same store (design §5.9): session
 * definitions, what starts left behind, retirement generations, failed setup commands and
 * per-session leases. Implementations must be thread-safe and, when shared across processes,
 * transactional: {@link #tryAcquireLease} in particular must be atomic across all users of the
 * store, because it is what keeps two processes from creating two sandboxes for one session.
 */
public interface SessionStore extends AutoCloseable {

    /**
     * Creates the session record or updates its definition, keeping what starts recorded, and
     * marks it used now.
     */
    SessionRecord register(SessionDefinition definition);

    Optional<SessionRecord> find(String sessionId);

    /** Every session record, ordered by id. */
    List<SessionRecord> list();

    /**
     * Records the base branch a start resolved (the remote's default branch) for a session that
     * named none, so later starts and processes use the same one. A session without a record is ignored.
     */
    void recordBaseBranch(String sessionId, String baseBranch);

    /**
     * Sets when the session was last used (a command, a touch) and, with {@code busyUntil}, marks
     * it busy until then at least (a command runs in it; renewed while it does), so no process
     * takes it for idle meanwhile. A session without a record is ignored.
     */
    void recordUse(String sessionId, Instant at, Optional<Instant> busyUntil);

    /** Marks the session busy until {@code until} at least; see {@link #recordUse}. */
    void recordBusy(String sessionId, Instant until);

    /**
     * Records, for an environment, each repository's setup state at the last start ({@code done}
     * or {@code failed}, by checkout directory); before any start they read as pending.
     */
    void recordSetupStates(String sessionId, Map<String, String> states);

    /** Records that a retirement stopped the session's sandbox; the next start clears it. */
    void recordStopped(String sessionId, Instant at);

    /**
     * Records how the session's checkouts stood against their upstreams at the last start ({@code
     * up to date}, {@code behind 2, dirty}…). A session without a record is ignored.
     */
    void recordFreshness(String sessionId, String freshness);

    /** Records what a successful start left behind. A session without a record is ignored. */
    void recordStart(String sessionId, Optional<String> sandboxId, String workdir, Instant materializedAt);

    /** Deletes the session record and its failed setup commands; generations survive. */
    boolean delete(String sessionId);

    /** The session's retirement generation; 0 for a session never retired. */
    long generation(String sessionId);

    /** Increments the session's generation and returns the new value. */
    long bumpGeneration(String sessionId);

    /** The exact setup command texts that failed in this session. */
    Set<String> failedSetupCommands(String sessionId);

    void recordFailedSetupCommand(String sessionId, String command);

    void clearFailedSetupCommands(String sessionId);

    /**
     * Takes the session's lease for {@code ttl} when it is free, expired, already {@code owner}'s,
     * or held by an owner that {@link LeaseOwner#isProvablyGone() is provably gone}. A lease taken
     * over from another owner (expired or gone) reports that owner in {@link LeaseAttempt#replaced()}:
     * it crashed while it held the lease.
     */
    LeaseAttempt tryAcquireLease(String sessionId, LeaseOwner owner, Duration ttl);

    /** Extends {@code owner}'s lease by {@code ttl} from now; false when it no longer holds it. */
    boolean renewLease(String sessionId, String ownerId, Duration ttl);

        /**
     * Appends {@code entry} to its session's command journal and drops the oldest entries beyond
     * {@code keep}. A store without a journal ignores it (the default), so stores written before the
     * journal keep working; a journal that fails must never fail the command it records.
     */
    default void appendJournal(JournalEntry entry, int keep) {
    }

    /** The newest {@code limit} entries of the session's command journal, oldest first; empty without a journal. */
    default List<JournalEntry> journal(String sessionId, int limit) {
        return List.of();
    }

/** Gives the lease up if {@code owner} holds it. */
    void releaseLease(String sessionId, String ownerId);

    @Override
    void close();
}
