package io.sandboxfactory.store.jdbc;

import io.sandboxfactory.store.api.Fence;
import io.sandboxfactory.store.api.FencedOutException;
import io.sandboxfactory.store.api.JournalEntry;
import io.sandboxfactory.store.api.SessionEgress;
import io.sandboxfactory.store.api.SessionRecord;
import io.sandboxfactory.store.api.SessionStore;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the SQL session stores share: every operation whose statements are the same in each
 * dialect, run through the store's own transactions ({@link #read}, {@link #write}) and fence check.
 * A store adds what its dialect writes differently (the upsert of a registration, max of times)
 * and its leases.
 */
public abstract class JdbcSessionStore implements SessionStore {

    /** One unit of work on a connection. */
    @FunctionalInterface
    protected interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    protected final SessionRows rows;

    protected JdbcSessionStore(SessionRows rows) {
        this.rows = rows;
    }

    /** Runs {@code work} where it sees committed data; a store may run it as a transaction. */
    protected abstract <T> T read(Work<T> work);

    /** Runs {@code work} as one transaction: it commits whole or not at all. */
    protected abstract <T> T write(Work<T> work);

    /**
     * Throws {@link FencedOutException} when {@code fence} is refused by the session's current
     * token; called inside the write it guards, which it must keep any acquisition from coming between.
     */
    protected abstract void checkFence(Connection c, String sessionId, Fence fence, String what) throws SQLException;

    @Override
    public Optional<SessionRecord> find(String sessionId) {
        return read(c -> rows.find(c, sessionId));
    }

    @Override
    public List<SessionRecord> list() {
        return read(rows::list);
    }

    /** Sets the session's last use and raises its busy mark to {@code busyUntil}, inside a write; see {@link #recordUse}. */
    protected abstract void markUse(Connection c, String sessionId, Instant at, Optional<Instant> busyUntil) throws SQLException;

    @Override
    public final void recordUse(String sessionId, Instant at, Optional<Instant> busyUntil) {
        write(c -> {
            markUse(c, sessionId, at, busyUntil);
            return null;
        });
    }

    /** One transaction: the use, and the command's row in {@code running_commands} written (running) or removed (ended). */
    @Override
    public void recordCommand(String sessionId, String commandId, Instant at, Optional<Instant> runningUntil) {
        write(c -> {
            markUse(c, sessionId, at, runningUntil);
            CommandRows.recordCommand(c, sessionId, commandId, at, runningUntil);
            return null;
        });
    }

    @Override
    public Set<String> sessionsRunningCommands(Instant now) {
        return read(c -> CommandRows.sessionsRunningCommands(c, now));
    }

    @Override
    public void recordStopped(String sessionId, Instant at) {
        update("UPDATE sessions SET stopped_at = ? WHERE session_id = ?", at.toEpochMilli(), sessionId);
    }

    @Override
    public void recordFreshness(String sessionId, String freshness) {
        update("UPDATE sessions SET freshness = ? WHERE session_id = ?", freshness, sessionId);
    }

    @Override
    public void recordBaseBranch(String sessionId, String baseBranch) {
        update("UPDATE sessions SET base_branch = ? WHERE session_id = ?", baseBranch, sessionId);
    }

    protected final void update(String sql, Object value, String sessionId) {
        write(c -> {
            SessionRows.update(c, sql, value, sessionId);
            return null;
        });
    }

    @Override
    public void recordSetupStates(String sessionId, Map<String, String> states, Fence fence) {
        write(c -> {
            checkFence(c, sessionId, fence, "recording the setup states");
            SessionRows.recordSetupStates(c, sessionId, states);
            return null;
        });
    }

    @Override
    public void recordStart(String sessionId, Optional<String> sandboxId, String workdir, Instant materializedAt, Fence fence) {
        write(c -> {
            checkFence(c, sessionId, fence, "recording the start (sandbox " + sandboxId.orElse("?") + ")");
            SessionRows.recordStart(c, sessionId, sandboxId, workdir, materializedAt);
            return null;
        });
    }

    @Override
    public boolean delete(String sessionId, Fence fence) {
        return write(c -> {
            checkFence(c, sessionId, fence, "deleting the session record");
            return SessionRows.delete(c, sessionId);
        });
    }

    @Override
    public void requireFence(String sessionId, Fence fence) {
        read(c -> {
            checkFence(c, sessionId, fence, "a write");
            return null;
        });
    }

    @Override
    public void appendJournal(JournalEntry entry, int keep) {
        write(c -> {
            CommandRows.appendJournal(c, entry, keep);
            return null;
        });
    }

    @Override
    public List<JournalEntry> journal(String sessionId, int limit) {
        return read(c -> CommandRows.journal(c, sessionId, limit));
    }

    @Override
    public SessionEgress egress(String sessionId) {
        return read(c -> rows.egress(c, sessionId));
    }

    @Override
    public void recordEgress(String sessionId, SessionEgress egress) {
        write(c -> {
            rows.recordEgress(c, sessionId, egress);
            return null;
        });
    }

    @Override
    public long generation(String sessionId) {
        return read(c -> SessionRows.generation(c, sessionId));
    }

    @Override
    public long bumpGeneration(String sessionId) {
        return write(c -> SessionRows.bumpGeneration(c, sessionId));
    }

    @Override
    public Set<String> failedSetupCommands(String sessionId) {
        return read(c -> CommandRows.failedSetupCommands(c, sessionId));
    }

    @Override
    public void recordFailedSetupCommand(String sessionId, String command, Fence fence) {
        write(c -> {
            checkFence(c, sessionId, fence, "recording a failed setup command");
            CommandRows.recordFailedSetupCommand(c, sessionId, command);
            return null;
        });
    }

    @Override
    public void clearFailedSetupCommands(String sessionId) {
        write(c -> {
            CommandRows.clearFailedSetupCommands(c, sessionId);
            return null;
        });
    }
}
