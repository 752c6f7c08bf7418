package io.sandboxfactory.store.postgres;

import io.sandboxfactory.core.store.EnvironmentDefinition;
import io.sandboxfactory.core.store.Fence;
import io.sandboxfactory.core.store.JournalEntry;
import io.sandboxfactory.core.store.FencedOutException;
import io.sandboxfactory.core.store.LeaseAttempt;
import io.sandboxfactory.core.store.LeaseOwner;
import io.sandboxfactory.core.store.SessionDefinition;
import io.sandboxfactory.core.store.SessionRecord;
import io.sandboxfactory.core.store.SessionRows;
import io.sandboxfactory.core.store.SessionStore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A {@link SessionStore} in PostgreSQL, shared by factories on many hosts (design §5.15). Every
 * operation is one transaction on a pooled connection (READ COMMITTED). Lease rows are locked one
 * at a time: an acquisition takes its session's row {@code FOR UPDATE SKIP LOCKED} (a row another
 * acquirer or a fenced writer holds answers "not acquired" at once, and the caller polls), a fenced
 * write takes it {@code FOR SHARE} for the length of its transaction, so no acquisition comes
 * between the token check and the write. Nothing locks a table. Expiry is judged by the server's
 * {@code clock_timestamp()}, never a host's clock.
 */
public final class PostgresSessionStore implements SessionStore {

    private final StoreConnections pool;
    private final String description;
    private final SessionRows rows;
    private final PostgresLeases leases;

    private PostgresSessionStore(StoreConnections pool, String description) {
        this.pool = pool;
        this.description = description;
        this.rows = new SessionRows(description);
        this.leases = new PostgresLeases();
    }

    /** Takes over {@code pool} (closed with the store) and migrates the schema. */
    static PostgresSessionStore open(StoreConnections pool, Optional<String> schema, String description) {
        PostgresSessionStore store = new PostgresSessionStore(pool, description);
        store.tx(c -> PostgresMigrations.migrate(c, schema, description));
        return store;
    }

    /** The schema version the database is at. */
    public int schemaVersion() {
        return tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT version FROM schema_version"); ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        });
    }

    @Override
    public SessionRecord register(SessionDefinition d) {
        long now = System.currentTimeMillis();
        return tx(c -> {
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO sessions (session_id, repository, branch, base_branch, setup_commands, teardown_commands,"
                            + " provider, created_at, last_used_at, labels, environment, workspace_setup, workspace_teardown)"
                            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                            + " ON CONFLICT (session_id) DO UPDATE SET repository = excluded.repository, branch = excluded.branch,"
                            + " base_branch = CASE WHEN excluded.base_branch = '' THEN sessions.base_branch ELSE excluded.base_branch END,"
                            + " setup_commands = excluded.setup_commands, teardown_commands = excluded.teardown_commands,"
                            + " provider = excluded.provider, last_used_at = excluded.last_used_at,"
                            + " labels = (sessions.labels::jsonb || excluded.labels::jsonb)::text,"
                            + " environment = excluded.environment, workspace_setup = excluded.workspace_setup,"
                            + " workspace_teardown = excluded.workspace_teardown")) {
                ps.setString(1, d.sessionId());
                ps.setString(2, d.repository());
                ps.setString(3, d.branch());
                ps.setString(4, d.baseBranch().orElse(""));
                ps.setString(5, rows.toJson(d.setupCommands()));
                ps.setString(6, rows.toJson(d.teardownCommands()));
                ps.setString(7, d.provider().orElse(null));
                ps.setLong(8, now);
                ps.setLong(9, now);
                ps.setString(10, rows.toJson(d.labels()));
                ps.setBoolean(11, d.environment().isPresent());
                ps.setString(12, rows.toJson(d.environment().map(EnvironmentDefinition::workspaceSetup).orElse(List.of())));
                ps.setString(13, rows.toJson(d.environment().map(EnvironmentDefinition::workspaceTeardown).orElse(List.of())));
                ps.executeUpdate();
            }
            rows.writeRepositories(c, d);
            return rows.find(c, d.sessionId()).orElseThrow();
        });
    }

    @Override
    public Optional<SessionRecord> find(String sessionId) {
        return tx(c -> rows.find(c, sessionId));
    }


    @Override
    public List<SessionRecord> list() {
        return tx(rows::list);
    }

    @Override
    public void recordBaseBranch(String sessionId, String baseBranch) {
        update("UPDATE sessions SET base_branch = ? WHERE session_id = ?", baseBranch, sessionId);
    }

    @Override
    public void recordUse(String sessionId, Instant at, Optional<Instant> busyUntil) {
        tx(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE sessions SET last_used_at = ?,"
                    + " busy_until = NULLIF(GREATEST(COALESCE(busy_until, 0), COALESCE(?, 0)), 0) WHERE session_id = ?")) {
                ps.setLong(1, at.toEpochMilli());
                if (busyUntil.isPresent()) {
                    ps.setLong(2, busyUntil.get().toEpochMilli());
                } else {
                    ps.setNull(2, Types.BIGINT);
                }
                ps.setString(3, sessionId);
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public void recordBusy(String sessionId, Instant until) {
        update("UPDATE sessions SET busy_until = GREATEST(COALESCE(busy_until, 0), ?) WHERE session_id = ?", until.toEpochMilli(), sessionId);
    }

    @Override
    public void recordSetupStates(String sessionId, Map<String, String> states, Fence fence) {
        tx(c -> {
            checkFence(c, sessionId, fence, "recording the setup states");
            SessionRows.recordSetupStates(c, sessionId, states);
            return null;
        });
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
    public void recordStart(String sessionId, Optional<String> sandboxId, String workdir, Instant materializedAt, Fence fence) {
        tx(c -> {
            checkFence(c, sessionId, fence, "recording the start (sandbox " + sandboxId.orElse("?") + ")");
            SessionRows.recordStart(c, sessionId, sandboxId, workdir, materializedAt);
            return null;
        });
    }

    @Override
    public boolean delete(String sessionId, Fence fence) {
        return tx(c -> {
            checkFence(c, sessionId, fence, "deleting the session record");
            return SessionRows.delete(c, sessionId);
        });
    }

    @Override
    public void requireFence(String sessionId, Fence fence) {
        tx(c -> {
            checkFence(c, sessionId, fence, "a write");
            return null;
        });
    }

    /** Holds the session's lease row (shared) until the transaction ends, so no acquisition comes between. */
    private static void checkFence(Connection c, String sessionId, Fence fence, String what) throws SQLException {
        if (!fence.fenced()) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("SELECT fencing_token FROM leases WHERE session_id = ? FOR SHARE")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                long current = rs.next() ? rs.getLong(1) : 0L;
                if (fence.refusedBy(current)) {
                    throw new FencedOutException(sessionId, what, fence.token(), current);
                }
            }
        }
    }

    @Override
    public void appendJournal(JournalEntry entry, int keep) {
        tx(c -> {
            SessionRows.appendJournal(c, entry, keep);
            return null;
        });
    }

    @Override
    public List<JournalEntry> journal(String sessionId, int limit) {
        return tx(c -> SessionRows.journal(c, sessionId, limit));
    }

    @Override
    public long generation(String sessionId) {
        return tx(c -> SessionRows.generation(c, sessionId));
    }

    @Override
    public long bumpGeneration(String sessionId) {
        return tx(c -> SessionRows.bumpGeneration(c, sessionId));
    }

    @Override
    public Set<String> failedSetupCommands(String sessionId) {
        return tx(c -> SessionRows.failedSetupCommands(c, sessionId));
    }

    @Override
    public void recordFailedSetupCommand(String sessionId, String command, Fence fence) {
        tx(c -> {
            checkFence(c, sessionId, fence, "recording a failed setup command");
            SessionRows.recordFailedSetupCommand(c, sessionId, command);
            return null;
        });
    }

    @Override
    public void clearFailedSetupCommands(String sessionId) {
        tx(c -> {
            SessionRows.clearFailedSetupCommands(c, sessionId);
            return null;
        });
    }

    @Override
    public LeaseAttempt tryAcquireLease(String sessionId, LeaseOwner owner, Duration ttl) {
        return tx(c -> leases.tryAcquire(c, sessionId, owner, ttl));
    }

    @Override
    public boolean renewLease(String sessionId, String ownerId, Fence fence, Duration ttl) {
        return tx(c -> leases.renew(c, sessionId, ownerId, fence, ttl));
    }

    @Override
    public void releaseLease(String sessionId, String ownerId, Fence fence) {
        tx(c -> {
            leases.release(c, sessionId, ownerId, fence);
            return null;
        });
    }

    @Override
    public void close() {
        pool.close();
    }

    @Override
    public String toString() {
        return "PostgresSessionStore[" + description + "]";
    }

    // ---- plumbing -------------------------------------------------------------------------------

    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    private void update(String sql, Object value, String sessionId) {
        tx(c -> {
            SessionRows.update(c, sql, value, sessionId);
            return null;
        });
    }

    /** Runs {@code work} as one transaction: it commits whole or not at all (a connection lost midway rolls it back). */
    private <T> T tx(Work<T> work) {
        try (Connection c = pool.get()) {
            c.setAutoCommit(false);
            try {
                T result = work.run(c);
                c.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(c);
                throw e;
            }
        } catch (SQLException e) {
            throw StoreFailures.of(description, e);
        }
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // The connection is broken; the server rolls the transaction back itself.
        }
    }
}
