package io.sandboxfactory.core.store;

import io.sandboxfactory.api.error.StandardErrorCode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.sqlite.SQLiteConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;

import java.time.Instant;
import java.util.Optional;
import io.sandboxfactory.store.api.Fence;
import io.sandboxfactory.store.api.FencedOutException;
import io.sandboxfactory.store.api.LeaseAttempt;
import io.sandboxfactory.store.api.LeaseOwner;
import io.sandboxfactory.store.api.SessionDefinition;
import io.sandboxfactory.store.api.SessionRecord;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.store.api.SessionStoreException;
import io.sandboxfactory.store.jdbc.JdbcSessionStore;
import io.sandboxfactory.store.jdbc.SessionRows;

/**
 * The embedded default {@link SessionStore}: one SQLite file (by default {@value #FILE_NAME} under
 * the state directory) shared safely by every thread and process that opens it. The file runs in
 * WAL mode with a busy timeout, and every write is a {@code BEGIN IMMEDIATE} transaction, so
 * concurrent writers queue instead of failing. The store creates and migrates its own schema
 * ({@link SqliteMigrations}).
 */
public final class SqliteSessionStore extends JdbcSessionStore {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteSessionStore.class);

    /** The database file name under the state directory. */
    public static final String FILE_NAME = "sessions.db";

    private static final Duration BUSY_TIMEOUT = Duration.ofSeconds(30);

    private final Path file;
    private final Connection connection;

    private SqliteSessionStore(Path file, Connection connection) {
        super(new SessionRows(file.toString()));
        this.file = file;
        this.connection = connection;
    }

    /** Opens (creating if needed) {@value #FILE_NAME} under {@code stateDirectory}. */
    public static SqliteSessionStore openIn(Path stateDirectory) {
        return open(stateDirectory.resolve(FILE_NAME));
    }

    /** Opens (creating if needed) the database {@code file}, migrating its schema to the current version. */
    public static SqliteSessionStore open(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        try {
            Files.createDirectories(absolute.getParent());
        } catch (IOException e) {
            throw new UncheckedIOException("Could not create the directory of session store " + absolute + ": " + e.getMessage(), e);
        }
        SQLiteConfig config = new SQLiteConfig();
        config.setJournalMode(SQLiteConfig.JournalMode.WAL);
        config.setSynchronous(SQLiteConfig.SynchronousMode.NORMAL);
        config.setBusyTimeout((int) BUSY_TIMEOUT.toMillis());
        config.setTransactionMode(SQLiteConfig.TransactionMode.IMMEDIATE);
        config.enforceForeignKeys(true);
        try {
            Connection connection = config.createConnection("jdbc:sqlite:" + absolute);
            SqliteSessionStore store = new SqliteSessionStore(absolute, connection);
            store.migrate();
            return store;
        } catch (SQLException e) {
            throw new SessionStoreException(StandardErrorCode.SESSION_STORE,
                    "Could not open session store " + absolute + ": " + e.getMessage(), e);
        }
    }

    /** The database file. */
    public Path file() {
        return file;
    }

    /** The schema version the file is at. */
    public int schemaVersion() {
        return read(c -> {
            try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT version FROM schema_version")) {
                return rs.next() ? rs.getInt(1) : 0;
            }
        });
    }

    private void migrate() {
        write(c -> {
            SqliteMigrations.migrate(c, file);
            return null;
        });
    }

    @Override
    public SessionRecord register(SessionDefinition d) {
        long now = System.currentTimeMillis();
        write(c -> {
            try (PreparedStatement ps = c.prepareStatement(SessionRows.INSERT_SESSION
                            + " ON CONFLICT(session_id) DO UPDATE SET repository = excluded.repository, branch = excluded.branch,"
                            + " base_branch = CASE WHEN excluded.base_branch = '' THEN sessions.base_branch ELSE excluded.base_branch END,"
                            + " setup_commands = excluded.setup_commands,"
                            + " teardown_commands = excluded.teardown_commands, provider = excluded.provider,"
                            + " last_used_at = excluded.last_used_at, labels = json_patch(sessions.labels, excluded.labels),"
                            + " environment = excluded.environment, workspace_setup = excluded.workspace_setup,"
                            + " workspace_teardown = excluded.workspace_teardown, ephemeral_owner = excluded.ephemeral_owner,"
                            + " " + SessionRows.KEEP_SETUP_SECRETS)) {
                rows.bindRegister(ps, d, now);
                ps.executeUpdate();
            }
            rows.writeRepositories(c, d);
            return null;
        });
        return find(d.sessionId()).orElseThrow();
    }

    @Override
    protected void markUse(Connection c, String sessionId, Instant at, Optional<Instant> busyUntil) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE sessions SET last_used_at = ?,"
                + " busy_until = MAX(COALESCE(busy_until, 0), COALESCE(?, 0)) WHERE session_id = ?")) {
            ps.setLong(1, at.toEpochMilli());
            if (busyUntil.isPresent()) {
                ps.setLong(2, busyUntil.get().toEpochMilli());
            } else {
                ps.setNull(2, java.sql.Types.INTEGER);
            }
            ps.setString(3, sessionId);
            ps.executeUpdate();
        }
    }

    @Override
    public void recordBusy(String sessionId, Instant until) {
        update("UPDATE sessions SET busy_until = MAX(COALESCE(busy_until, 0), ?) WHERE session_id = ?", until.toEpochMilli(), sessionId);
    }

    /** Inside a write transaction, which holds the file's write lock: no acquisition can come between. */
    @Override
    protected void checkFence(Connection c, String sessionId, Fence fence, String what) throws SQLException {
        if (!fence.fenced()) {
            return;
        }
        long current = SqliteLeases.currentToken(c, sessionId);
        if (fence.refusedBy(current)) {
            throw new FencedOutException(sessionId, what, fence.token(), current);
        }
    }

    @Override
    public LeaseAttempt tryAcquireLease(String sessionId, LeaseOwner owner, Duration ttl) {
        return write(c -> SqliteLeases.tryAcquire(c, sessionId, owner, ttl));
    }

    @Override
    public boolean renewLease(String sessionId, String ownerId, Fence fence, Duration ttl) {
        return write(c -> SqliteLeases.renew(c, sessionId, ownerId, fence, ttl));
    }

    @Override
    public void releaseLease(String sessionId, String ownerId, Fence fence) {
        write(c -> {
            SqliteLeases.release(c, sessionId, ownerId, fence);
            return null;
        });
    }

    @Override
    public synchronized void close() {
        try {
            connection.close();
        } catch (SQLException e) {
            LOG.warn("Closing session store {} failed: {}", file, e.getMessage());
        }
    }

    @Override
    public String toString() {
        return "SqliteSessionStore[" + file + "]";
    }

    // ---- plumbing -------------------------------------------------------------------------------

    /** Runs {@code work} as one {@code BEGIN IMMEDIATE} transaction. */
    @Override
    protected synchronized <T> T write(Work<T> work) {
        try {
            connection.setAutoCommit(false);
            try {
                T result = work.run(connection);
                connection.commit();
                return result;
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new SessionStoreException(StandardErrorCode.SESSION_STORE, "Session store " + file + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    protected synchronized <T> T read(Work<T> work) {
        try {
            return work.run(connection);
        } catch (SQLException e) {
            throw new SessionStoreException(StandardErrorCode.SESSION_STORE, "Session store " + file + " failed: " + e.getMessage(), e);
        }
    }

    private void rollbackQuietly() {
        try {
            connection.rollback();
        } catch (SQLException e) {
            LOG.debug("Rollback in session store {} failed: {}", file, e.getMessage());
        }
    }
}
