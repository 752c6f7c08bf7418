package io.sandboxfactory.core.store;

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
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The embedded default {@link SessionStore}: one SQLite file (by default {@value #FILE_NAME} under
 * the state directory) shared safely by every thread and process that opens it. The file runs in
 * WAL mode with a busy timeout, and every write is a {@code BEGIN IMMEDIATE} transaction, so
 * concurrent writers queue instead of failing. The store creates and migrates its own schema,
 * tracked in a {@code schema_version} table.
 */
public final class SqliteSessionStore extends JdbcSessionStore {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteSessionStore.class);

    /** The database file name under the state directory. */
    public static final String FILE_NAME = "sessions.db";

    private static final Duration BUSY_TIMEOUT = Duration.ofSeconds(30);

    /** Schema steps; step {@code i} brings the schema to version {@code i + 1}. Append only. */
    private static final List<List<String>> MIGRATIONS = List.of(List.of(
            "CREATE TABLE sessions (session_id TEXT PRIMARY KEY, repository TEXT NOT NULL, branch TEXT NOT NULL,"
                    + " base_branch TEXT NOT NULL, setup_commands TEXT NOT NULL, teardown_commands TEXT NOT NULL,"
                    + " provider TEXT, sandbox_id TEXT, workdir TEXT, materialized_at INTEGER,"
                    + " created_at INTEGER NOT NULL, last_used_at INTEGER NOT NULL)",
            "CREATE TABLE session_generations (session_id TEXT PRIMARY KEY, generation INTEGER NOT NULL)",
            "CREATE TABLE failed_setup_commands (session_id TEXT NOT NULL, command TEXT NOT NULL,"
                    + " failed_at INTEGER NOT NULL, PRIMARY KEY (session_id, command))",
            "CREATE TABLE session_leases (session_id TEXT PRIMARY KEY, owner_id TEXT NOT NULL, host TEXT NOT NULL,"
                    + " pid INTEGER NOT NULL, process_start INTEGER, expires_at INTEGER NOT NULL)"),
            List.of("ALTER TABLE sessions ADD COLUMN labels TEXT NOT NULL DEFAULT '{}'",
                    "ALTER TABLE sessions ADD COLUMN freshness TEXT",
                    "ALTER TABLE sessions ADD COLUMN busy_until INTEGER",
                    "ALTER TABLE sessions ADD COLUMN stopped_at INTEGER"),
            List.of("ALTER TABLE sessions ADD COLUMN environment INTEGER NOT NULL DEFAULT 0",
                    "ALTER TABLE sessions ADD COLUMN workspace_setup TEXT NOT NULL DEFAULT '[]'",
                    "ALTER TABLE sessions ADD COLUMN workspace_teardown TEXT NOT NULL DEFAULT '[]'",
                    "CREATE TABLE session_repositories (session_id TEXT NOT NULL, position INTEGER NOT NULL, repository TEXT NOT NULL,"
                            + " dir TEXT NOT NULL, base_branch TEXT NOT NULL, setup_commands TEXT NOT NULL, teardown_commands TEXT NOT NULL,"
                            + " setup_state TEXT, PRIMARY KEY (session_id, position))"),
            // Fencing tokens (design §5.15): a lease row outlives its release, so tokens keep growing.
            List.of("CREATE TABLE leases (session_id TEXT PRIMARY KEY, fencing_token INTEGER NOT NULL, owner_id TEXT,"
                            + " host TEXT, pid INTEGER, process_start INTEGER, expires_at INTEGER NOT NULL)",
                    "INSERT INTO leases SELECT session_id, 1, owner_id, host, pid, process_start, expires_at FROM session_leases",
                    "DROP TABLE session_leases"),
            // The command journal (design §7.1): the last entries of every session, dropped with it.
            List.of("CREATE TABLE command_journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,"
                            + " started_at INTEGER NOT NULL, duration_ms INTEGER NOT NULL, origin TEXT NOT NULL, command TEXT NOT NULL,"
                            + " exit_code INTEGER NOT NULL, timed_out INTEGER NOT NULL, stdout_tail TEXT NOT NULL, stderr_tail TEXT NOT NULL)",
                    "CREATE INDEX command_journal_by_session ON command_journal (session_id, seq)"),
            // The owner's clock-independent start (HostProcess.startStamp): a step of the wall clock
            // must not make a live owner look gone.
            List.of("ALTER TABLE leases ADD COLUMN process_start_stamp TEXT"),
            // The process of a run that destroys its ephemeral session (SessionDefinition.ephemeralOwner).
            List.of("ALTER TABLE sessions ADD COLUMN ephemeral_owner TEXT"),
            // The commands running now, one row each, so status in any process can say "running".
            List.of(SessionRows.CREATE_RUNNING_COMMANDS));

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
            throw new SessionStoreException("Could not open session store " + absolute + ": " + e.getMessage(), e);
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
            try (Statement s = c.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
                int version;
                try (ResultSet rs = s.executeQuery("SELECT version FROM schema_version")) {
                    version = rs.next() ? rs.getInt(1) : 0;
                }
                if (version == 0) {
                    s.execute("INSERT INTO schema_version (version) VALUES (0)");
                }
                if (version > MIGRATIONS.size()) {
                    throw new SessionStoreException("Session store " + file + " has schema version " + version
                            + ", newer than this version of Sandbox Factory understands (" + MIGRATIONS.size() + "); upgrade it.", null);
                }
                for (int step = version; step < MIGRATIONS.size(); step++) {
                    for (String sql : MIGRATIONS.get(step)) {
                        s.execute(sql);
                    }
                    s.execute("UPDATE schema_version SET version = " + (step + 1));
                    LOG.debug("Session store {} migrated to schema version {}", file, step + 1);
                }
            }
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
                            + " workspace_teardown = excluded.workspace_teardown, ephemeral_owner = excluded.ephemeral_owner")) {
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
        long current = currentToken(c, sessionId);
        if (fence.refusedBy(current)) {
            throw new FencedOutException(sessionId, what, fence.token(), current);
        }
    }

    private static long currentToken(Connection c, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT fencing_token FROM leases WHERE session_id = ?")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0L;
            }
        }
    }

    @Override
    public LeaseAttempt tryAcquireLease(String sessionId, LeaseOwner owner, Duration ttl) {
        return write(c -> {
            long now = System.currentTimeMillis();
            long token = 0;
            Optional<LeaseOwner> replaced = Optional.empty();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT fencing_token, owner_id, host, pid, process_start, process_start_stamp, expires_at FROM leases WHERE session_id = ?")) {
                ps.setString(1, sessionId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        token = rs.getLong("fencing_token");
                        String holderId = rs.getString("owner_id");
                        if (holderId != null) {
                            long start = rs.getLong("process_start");
                            Optional<Instant> started = rs.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(start));
                            LeaseOwner holder = new LeaseOwner(holderId, rs.getString("host"), rs.getLong("pid"), started,
                                    Objects.requireNonNullElse(rs.getString("process_start_stamp"), ""));
                            long expiresAt = rs.getLong("expires_at");
                            boolean free = holder.id().equals(owner.id()) || expiresAt <= now || holder.isProvablyGone();
                            if (!free) {
                                return new LeaseAttempt(false, holder, Instant.ofEpochMilli(expiresAt), Optional.empty(), token);
                            }
                            if (!holder.id().equals(owner.id())) {
                                LOG.debug("Taking the lease of session '{}' from {} (expired or gone)", sessionId, holder);
                                replaced = Optional.of(holder);
                            }
                        }
                    }
                }
            }
            long expiresAt = now + ttl.toMillis();
            try (PreparedStatement ps = c.prepareStatement("INSERT OR REPLACE INTO leases"
                    + " (session_id, fencing_token, owner_id, host, pid, process_start, process_start_stamp, expires_at)"
                    + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, sessionId);
                ps.setLong(2, token + 1);
                ps.setString(3, owner.id());
                ps.setString(4, owner.host());
                ps.setLong(5, owner.pid());
                if (owner.processStart().isPresent()) {
                    ps.setLong(6, owner.processStart().get().toEpochMilli());
                } else {
                    ps.setNull(6, Types.INTEGER);
                }
                ps.setString(7, owner.processStartStamp().isEmpty() ? null : owner.processStartStamp());
                ps.setLong(8, expiresAt);
                ps.executeUpdate();
            }
            return new LeaseAttempt(true, owner, Instant.ofEpochMilli(expiresAt), replaced, token + 1);
        });
    }

    @Override
    public boolean renewLease(String sessionId, String ownerId, Fence fence, Duration ttl) {
        return write(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE leases SET expires_at = ?"
                    + " WHERE session_id = ? AND owner_id = ? AND fencing_token = ?")) {
                ps.setLong(1, System.currentTimeMillis() + ttl.toMillis());
                ps.setString(2, sessionId);
                ps.setString(3, ownerId);
                ps.setLong(4, fence.token());
                return ps.executeUpdate() > 0;
            }
        });
    }

    @Override
    public void releaseLease(String sessionId, String ownerId, Fence fence) {
        write(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE leases SET owner_id = NULL, host = NULL, pid = NULL,"
                    + " process_start = NULL, process_start_stamp = NULL, expires_at = 0 WHERE session_id = ? AND owner_id = ? AND fencing_token = ?")) {
                ps.setString(1, sessionId);
                ps.setString(2, ownerId);
                ps.setLong(3, fence.token());
                ps.executeUpdate();
            }
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
            throw new SessionStoreException("Session store " + file + " failed: " + e.getMessage(), e);
        }
    }

    @Override
    protected synchronized <T> T read(Work<T> work) {
        try {
            return work.run(connection);
        } catch (SQLException e) {
            throw new SessionStoreException("Session store " + file + " failed: " + e.getMessage(), e);
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
