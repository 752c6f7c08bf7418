package io.sandboxfactory.core;

import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.core.internal.retire.Retirements;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.retire.RetireResult;
import io.sandboxfactory.core.retire.SessionSelector;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.store.api.SessionRecord;

import java.util.List;
import java.util.Objects;

/**
 * The sessions of a factory's store as a whole, from {@link SandboxFactory#fleet()}: select them,
 * retire many at once, apply the idle policies, and remove what crashed processes left behind
 * (what {@code factory retire --label}, {@code factory sweep} and the daemon's idle check do). It
 * is the factory's, and closes with it.
 */
public final class SessionFleet {

    /** How many sessions {@link #retireAll(SessionSelector, RetireMode)} retires at once. */
    public static final int DEFAULT_RETIRE_PARALLELISM = Retirements.DEFAULT_PARALLELISM;

    private final FactorySessions sessions;
    private final Runnable requireOpen;

    /** @param requireOpen the factory's check, so that the fleet fails as the factory does once it is closed */
    SessionFleet(FactorySessions sessions, Runnable requireOpen) {
        this.sessions = sessions;
        this.requireOpen = requireOpen;
    }

    /** The sessions of the store that {@code selector} picks now, in session id order; changes nothing. */
    public List<SessionRecord> selectSessions(SessionSelector selector) {
        requireOpen.run();
        return sessions.select(selector);
    }

    /**
     * Retires every session {@code selector} picks, each as {@link SandboxFactory#retire} does (serialized per
     * session, teardown included), {@value #DEFAULT_RETIRE_PARALLELISM} at a time; a failure of
     * one does not stop the rest. One result per session, in session id order.
     */
    public List<RetireResult> retireAll(SessionSelector selector, RetireMode mode) {
        return retireAll(selector, mode, DEFAULT_RETIRE_PARALLELISM);
    }

    /** {@link #retireAll(SessionSelector, RetireMode)}, at most {@code parallelism} sessions at once. */
    public List<RetireResult> retireAll(SessionSelector selector, RetireMode mode, int parallelism) {
        requireOpen.run();
        return sessions.retireAll(selector, Objects.requireNonNull(mode, "mode"), parallelism);
    }

    /**
     * Retires each of {@code sessionIds} as {@link SandboxFactory#retire} does (an unknown one is a no-op that
     * says so), at most {@code parallelism} at once; one result per id, in the order given.
     */
    public List<RetireResult> retireEach(List<String> sessionIds, RetireMode mode, int parallelism) {
        requireOpen.run();
        return sessions.retireEach(List.copyOf(sessionIds), Objects.requireNonNull(mode, "mode"), parallelism);
    }

    /**
     * A dry run of {@link #retireAll(SessionSelector, RetireMode)}: the same selection and the same
     * checks, nothing changed; each result is {@code WOULD_RETIRE}, or {@code FAILED} with the
     * reason the real run would fail for.
     */
    public List<RetireResult> planRetirement(SessionSelector selector) {
        requireOpen.run();
        return sessions.plan(Objects.requireNonNull(selector, "selector"));
    }

    /** A dry run of {@link #retireEach}: {@code WOULD_RETIRE}, {@code UNKNOWN} or {@code FAILED} (and why) for each id, nothing changed. */
    public List<RetireResult> planRetirement(List<String> sessionIds) {
        requireOpen.run();
        return sessions.planEach(List.copyOf(sessionIds));
    }

    /**
     * Applies the configured idle policies: destroys sessions idle longer than {@code
     * lifecycle.deleteAfterIdle}, then stops running ones idle longer than {@code
     * lifecycle.stopAfterIdle}, each through {@link SandboxFactory#retire}. A session with a command running (in
     * any process) is never idle. Does nothing when neither is configured.
     */
    public List<RetireResult> applyIdlePolicies() {
        requireOpen.run();
        return sessions.applyIdlePolicies();
    }

    /**
     * Removes the selected provider's orphaned sandboxes: those whose session the store does not
     * know, and those whose first open crashed (never handed to a user, its lease left behind by a
     * dead or expired owner), with that session's record. Live sessions — held here or by another
     * live process, being opened, or ever handed to a user (even stopped) — are never touched. See
     * {@code OrphanSweeper}. Also removes object cache mirrors unused for {@code cache.maxIdle}.
     */
    public List<SandboxListing> sweep() {
        requireOpen.run();
        List<SandboxListing> removed = sessions.sweep();
        sessions.pruneObjectCache();
        return removed;
    }

    /**
     * Deletes the records of the selected provider's sessions whose first open crashed before it
     * left a sandbox {@link #sweep} could remove (no start completed, the lease left behind by a dead
     * or expired owner); never one opened lazily, being opened, or ever started. Their ids, in order.
     * What {@code factory sweep} does after {@link #sweep}. (An open that fails without crashing
     * undoes itself: see {@link SandboxFactory#openSession}.)
     */
    public List<String> forgetUnfinishedOpens() {
        requireOpen.run();
        return sessions.forgetUnfinishedOpens();
    }

    /**
     * Destroys the ephemeral sessions of {@code run}s whose process died before it could (killed
     * outright): sessions opened with {@link SessionSpec#ephemeralFor} whose owner is provably gone
     * from this host. Sessions of a live owner, of another host, opened without an owner (or reopened
     * so since), and those this factory holds are never touched. What {@code factory sweep} does first.
     */
    public List<RetireResult> destroyAbandonedRuns() {
        requireOpen.run();
        return sessions.destroyAbandonedRuns();
    }
}
