package io.sandboxfactory.store.api;

import io.sandboxfactory.api.error.StandardErrorCode;
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
 *
 * <p><b>Fencing</b> (design §5.15). Every acquisition of a session's lease hands out a token larger
 * than every one before it for that session. The writes that decide what a session is — the
 * sandbox a start left ({@link #recordStart}), setup results ({@link #recordFailedSetupCommand},
 * {@link #recordSetupStates}), markers about to be written ({@link #requireFence}) and a
 * retirement's {@link #delete} — carry the {@link Fence} of the lease their
 * writer holds, and the store refuses them with {@link FencedOutException} when a newer token
 * exists, atomically with the write. The overloads without a fence write unfenced ({@link
 * Fence#NONE}). {@code factory-tck}'s {@code SessionStoreContract} checks all of this for any store.
 *
 * @since 0.1.0
 */
public interface SessionStore extends AutoCloseable {

    /**
     * Creates the session record or updates its definition, keeping what starts recorded (and
     * the stored {@link SessionDefinition#setupSecrets} when the definition names none), and
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
     * {@link #recordUse Records the use} of the session by one command, {@code commandId} (unique
     * per run), and whether it still runs: with {@code runningUntil} the command runs and counts as
     * running until then at least (renewed while it does, so a crashed runner's mark lapses);
     * without, it ended. This is what {@link #sessionsRunningCommands} answers from, in any process.
     * The default only records the use: a store without it never reports a command running.
     */
    default void recordCommand(String sessionId, String commandId, Instant at, Optional<Instant> runningUntil) {
        recordUse(sessionId, at, runningUntil);
    }

    /** The sessions in which a recorded command runs at {@code now} (its mark has not lapsed); see {@link #recordCommand}. */
    default Set<String> sessionsRunningCommands(Instant now) {
        return Set.of();
    }

    /**
     * Records, for an environment, each repository's setup state at the last start ({@code done}
     * or {@code failed}, by checkout directory); before any start they read as pending.
     */
    default void recordSetupStates(String sessionId, Map<String, String> states) {
        recordSetupStates(sessionId, states, Fence.NONE);
    }

    /** {@link #recordSetupStates(String, Map)}, refused when a newer lease token than {@code fence} exists. */
    void recordSetupStates(String sessionId, Map<String, String> states, Fence fence);

    /** Records that a retirement stopped the session's sandbox; the next start clears it. */
    void recordStopped(String sessionId, Instant at);

    /**
     * Records how the session's checkouts stood against their upstreams at the last start ({@code
     * up to date}, {@code behind 2, dirty}…). A session without a record is ignored.
     */
    void recordFreshness(String sessionId, String freshness);

    /** Records what a successful start left behind. A session without a record is ignored. */
    default void recordStart(String sessionId, Optional<String> sandboxId, String workdir, Instant materializedAt) {
        recordStart(sessionId, sandboxId, workdir, materializedAt, Fence.NONE);
    }

    /** {@link #recordStart(String, Optional, String, Instant)}, refused when a newer lease token than {@code fence} exists. */
    void recordStart(String sessionId, Optional<String> sandboxId, String workdir, Instant materializedAt, Fence fence);

    /** Deletes the session record and its failed setup commands; generations and lease tokens survive. */
    default boolean delete(String sessionId) {
        return delete(sessionId, Fence.NONE);
    }

    /** {@link #delete(String)}, refused when a newer lease token than {@code fence} exists. */
    boolean delete(String sessionId, Fence fence);

    /**
     * Throws {@link FencedOutException} when a newer lease token than {@code fence} exists: what a
     * writer asks before it changes something outside the store (the setup markers in the sandbox).
     */
    void requireFence(String sessionId, Fence fence);

    /** The session's retirement generation; 0 for a session never retired. */
    long generation(String sessionId);

    /**
     * Increments the session's generation and returns the new value. Unfenced on purpose: a
     * retirement bumps it before it waits for the lease, so that the open holding the lease sees it
     * and gives up; a late increment only retires once more.
     */
    long bumpGeneration(String sessionId);

    /** The exact setup command texts that failed in this session. */
    Set<String> failedSetupCommands(String sessionId);

    default void recordFailedSetupCommand(String sessionId, String command) {
        recordFailedSetupCommand(sessionId, command, Fence.NONE);
    }

    /** {@link #recordFailedSetupCommand(String, String)}, refused when a newer lease token than {@code fence} exists. */
    void recordFailedSetupCommand(String sessionId, String command, Fence fence);

    void clearFailedSetupCommands(String sessionId);

    /**
     * Takes the session's lease for {@code ttl} when it is free, expired, already {@code owner}'s,
     * or held by an owner that {@link LeaseOwner#isProvablyGone() is provably gone} (an owner on
     * another host never is: its lease frees only by expiry). Expiry is judged by the store's clock
     * (the database server's, for a shared store), never the caller's. Every acquisition, also a
     * re-acquisition by the same owner, gets a new, larger {@link LeaseAttempt#fencingToken()}. A
     * lease taken over from another owner (expired or gone) reports that owner in {@link
     * LeaseAttempt#replaced()}: it crashed (or stalled) while it held the lease. Never blocks on
     * another acquirer of the same session: it answers "not acquired" instead.
     */
    LeaseAttempt tryAcquireLease(String sessionId, LeaseOwner owner, Duration ttl);

    /**
     * Extends the lease acquired with {@code fence} to {@code ttl} from now, by the store's clock;
     * false when a newer acquisition (or a release) ended it. A lease that expired but that nobody
     * took since is still the caller's: renewing it succeeds.
     */
    boolean renewLease(String sessionId, String ownerId, Fence fence, Duration ttl);

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

    /** Gives the lease acquired with {@code fence} up, if it is still that one; its token stays used. */
    void releaseLease(String sessionId, String ownerId, Fence fence);

    /** The egress rules of the session's own ({@link SessionEgress#NONE} when it has none or the store does not know it). */
    default SessionEgress egress(String sessionId) {
        return SessionEgress.NONE;
    }

    /**
     * Replaces the session's own egress rules. A store that cannot keep them refuses rather than
     * ignoring them, since a deny that is silently lost reopens a host.
     */
    default void recordEgress(String sessionId, SessionEgress egress) {
        throw new SessionStoreException(StandardErrorCode.SESSION_STORE,
                "This session store (" + getClass().getName() + ") does not keep egress rules; use the"
                + " sqlite or postgres store for sessions with an egress allow-list.", null);
    }

    @Override
    void close();
}
