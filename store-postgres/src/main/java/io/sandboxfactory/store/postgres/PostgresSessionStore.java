package io.sandboxfactory.store.postgres;

import io.sandboxfactory.store.api.Fence;
import io.sandboxfactory.store.jdbc.JdbcSessionStore;
import io.sandboxfactory.store.api.FencedOutException;
import io.sandboxfactory.store.api.LeaseAttempt;
import io.sandboxfactory.store.api.LeaseOwner;
import io.sandboxfactory.store.api.SessionDefinition;
import io.sandboxfactory.store.api.SessionRecord;
import io.sandboxfactory.store.jdbc.SessionRows;
import io.sandboxfactory.store.api.SessionStore;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * A {@link SessionStore} in PostgreSQL, shared by factories on many hosts (design §5.15). Every
 * operation is one transaction on a pooled connection (READ COMMITTED). Lease rows are locked one
 * at a time: an acquisition takes its session's row {@code FOR UPDATE SKIP LOCKED} (a row another
 * acquirer or a fenced writer holds answers "not acquired" at once, and the caller polls), a fenced
 * write takes it {@code FOR SHARE} for the length of its transaction, so no acquisition comes
 * between the token check and the write. Nothing locks a table. Expiry is judged by the server's
 * {@code clock_timestamp()}, never a host's clock.
 */
public final class PostgresSessionStore extends JdbcSessionStore {

    private final StoreConnections pool;
    private final String description;
    private final PostgresLeases leases;

    private PostgresSessionStore(StoreConnections pool, String description) {
        super(new SessionRows(description));
        this.pool = pool;
        this.description = description;
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
            try (PreparedStatement ps = c.prepareStatement(SessionRows.INSERT_SESSION
                            + " ON CONFLICT (session_id) DO UPDATE SET repository = excluded.repository, branch = excluded.branch,"
                            + " base_branch = CASE WHEN excluded.base_branch = '' THEN sessions.base_branch ELSE excluded.base_branch END,"
                            + " setup_commands = excluded.setup_commands, teardown_commands = excluded.teardown_commands,"
                            + " provider = excluded.provider, last_used_at = excluded.last_used_at,"
                            + " labels = (sessions.labels::jsonb || excluded.labels::jsonb)::text,"
                            + " environment = excluded.environment, workspace_setup = excluded.workspace_setup,"
                            + " workspace_teardown = excluded.workspace_teardown, ephemeral_owner = excluded.ephemeral_owner,"
                            + " " + SessionRows.KEEP_SETUP_SECRETS)) {
                rows.bindRegister(ps, d, now);
                ps.executeUpdate();
            }
            rows.writeRepositories(c, d);
            return rows.find(c, d.sessionId()).orElseThrow();
        });
    }

    @Override
    protected void markUse(Connection c, String sessionId, Instant at, Optional<Instant> busyUntil) throws SQLException {
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
    }

    @Override
    public void recordBusy(String sessionId, Instant until) {
        update("UPDATE sessions SET busy_until = GREATEST(COALESCE(busy_until, 0), ?) WHERE session_id = ?", until.toEpochMilli(), sessionId);
    }

    /** Holds the session's lease row (shared) until the transaction ends, so no acquisition comes between. */
    @Override
    protected void checkFence(Connection c, String sessionId, Fence fence, String what) throws SQLException {
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

    /** Every read is a transaction too, on a pooled connection. */
    @Override
    protected <T> T read(Work<T> work) {
        return tx(work);
    }

    @Override
    protected <T> T write(Work<T> work) {
        return tx(work);
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
