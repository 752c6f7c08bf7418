package io.sandboxfactory.core.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The embedded default {@link SessionStore}: one SQLite file (by default {@value #FILE_NAME} under
 * the state directory) shared safely by every thread and process that opens it. The file runs in
 * WAL mode with a busy timeout, and every write is a {@code BEGIN IMMEDIATE} transaction, so
 * concurrent writers queue instead of failing. The store creates and migrates its own schema,
 * tracked in a {@code schema_version} table.
 */
public final class SqliteSessionStore implements SessionStore {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteSessionStore.class);

    /** The database file name under the state directory. */
    public static final String FILE_NAME = "sessions.db";

    private static final Duration BUSY_TIMEOUT = Duration.ofSeconds(30);
    private static final TypeReference<List<String>> STRING_LIST = new TypeReference<>() { };
    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() { };

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
            List.of("CREATE TABLE command_journal (seq INTEGER PRIMARY KEY AUTOINCREMENT, session_id TEXT NOT NULL,"
                            + " started_at INTEGER NOT NULL, duration_ms INTEGER NOT NULL, origin TEXT NOT NULL, command TEXT NOT NULL,"
                            + " exit_code INTEGER NOT NULL, timed_out INTEGER NOT NULL, stdout_tail TEXT NOT NULL, stderr_tail TEXT NOT NULL)",
                    "CREATE INDEX command_journal_by_session ON command_journal (session_id, seq)"));

    private final Path file;
    private final Connection connection;
    private final ObjectMapper json = new ObjectMapper();

    private SqliteSessionStore(Path file, Connection connection) {
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
            try (PreparedStatement ps = c.prepareStatement(
                    "INSERT INTO sessions (session_id, repository, branch, base_branch, setup_commands, teardown_commands,"
                            + " provider, created_at, last_used_at, labels, environment, workspace_setup, workspace_teardown)"
                            + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                            + " ON CONFLICT(session_id) DO UPDATE SET repository = excluded.repository, branch = excluded.branch,"
                            + " base_branch = CASE WHEN excluded.base_branch = '' THEN sessions.base_branch ELSE excluded.base_branch END,"
                            + " setup_commands = excluded.setup_commands,"
                            + " teardown_commands = excluded.teardown_commands, provider = excluded.provider,"
                            + " last_used_at = excluded.last_used_at, labels = json_patch(sessions.labels, excluded.labels),"
                            + " environment = excluded.environment, workspace_setup = excluded.workspace_setup,"
                            + " workspace_teardown = excluded.workspace_teardown")) {
                ps.setString(1, d.sessionId());
                ps.setString(2, d.repository());
                ps.setString(3, d.branch());
                ps.setString(4, d.baseBranch().orElse(""));
                ps.setString(5, toJson(d.setupCommands()));
                ps.setString(6, toJson(d.teardownCommands()));
                ps.setString(7, d.provider().orElse(null));
                ps.setLong(8, now);
                ps.setLong(9, now);
                ps.setString(10, toJson(d.labels()));
                ps.setInt(11, d.environment().isPresent() ? 1 : 0);
                ps.setString(12, toJson(d.environment().map(EnvironmentDefinition::workspaceSetup).orElse(List.of())));
                ps.setString(13, toJson(d.environment().map(EnvironmentDefinition::workspaceTeardown).orElse(List.of())));
                ps.executeUpdate();
            }
            writeRepositories(c, d);
            return null;
        });
        return find(d.sessionId()).orElseThrow();
    }

    @Override
    public Optional<SessionRecord> find(String sessionId) {
        return read(c -> {
            try (PreparedStatement ps = c.prepareStatement(SELECT_RECORD + " WHERE s.session_id = ?")) {
                ps.setString(1, sessionId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? Optional.of(toRecord(c, rs)) : Optional.<SessionRecord>empty();
                }
            }
        });
    }

    @Override
    public List<SessionRecord> list() {
        return read(c -> {
            List<SessionRecord> records = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement(SELECT_RECORD + " ORDER BY s.session_id"); ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    records.add(toRecord(c, rs));
                }
            }
            return records;
        });
    }

    private static final String SELECT_RECORD = "SELECT s.session_id, s.repository, s.branch, s.base_branch, s.setup_commands,"
            + " s.teardown_commands, s.provider, s.sandbox_id, s.workdir, s.materialized_at, s.created_at, s.last_used_at,"
            + " s.labels, s.freshness, s.busy_until, s.stopped_at, s.environment, s.workspace_setup, s.workspace_teardown,"
            + " COALESCE(g.generation, 0) AS generation FROM sessions s"
            + " LEFT JOIN session_generations g ON g.session_id = s.session_id";

    /** Keeps an environment's repositories, each in its own row; a reopen replaces them (their setup states start pending). */
    private void writeRepositories(Connection c, SessionDefinition d) throws SQLException {
        List<EnvironmentDefinition.RepositoryDefinition> wanted = d.environment().map(EnvironmentDefinition::repositories).orElse(List.of());
        if (wanted.equals(readRepositories(c, d.sessionId()).definitions())) {
            return;
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM session_repositories WHERE session_id = ?")) {
            ps.setString(1, d.sessionId());
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO session_repositories (session_id, position, repository, dir,"
                + " base_branch, setup_commands, teardown_commands) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
            for (int i = 0; i < wanted.size(); i++) {
                EnvironmentDefinition.RepositoryDefinition r = wanted.get(i);
                ps.setString(1, d.sessionId());
                ps.setInt(2, i);
                ps.setString(3, r.repository());
                ps.setString(4, r.dir());
                ps.setString(5, r.baseBranch().orElse(""));
                ps.setString(6, toJson(r.setupCommands()));
                ps.setString(7, toJson(r.teardownCommands()));
                ps.executeUpdate();
            }
        }
    }

    /** An environment's stored repositories and their setup states, in position order. */
    private record StoredRepositories(List<EnvironmentDefinition.RepositoryDefinition> definitions, Map<String, String> states) {
    }

    private StoredRepositories readRepositories(Connection c, String sessionId) throws SQLException {
        List<EnvironmentDefinition.RepositoryDefinition> definitions = new ArrayList<>();
        Map<String, String> states = new LinkedHashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT repository, dir, base_branch, setup_commands, teardown_commands, setup_state"
                + " FROM session_repositories WHERE session_id = ? ORDER BY position")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String dir = rs.getString("dir");
                    definitions.add(new EnvironmentDefinition.RepositoryDefinition(rs.getString("repository"), dir,
                            Optional.of(rs.getString("base_branch")).filter(b -> !b.isEmpty()), fromJson(rs.getString("setup_commands")),
                            fromJson(rs.getString("teardown_commands"))));
                    states.put(dir, Optional.ofNullable(rs.getString("setup_state")).orElse("pending"));
                }
            }
        }
        return new StoredRepositories(definitions, states);
    }

    private SessionRecord toRecord(Connection c, ResultSet rs) throws SQLException {
        String sessionId = rs.getString("session_id");
        StoredRepositories repositories = rs.getInt("environment") == 1 ? readRepositories(c, sessionId)
                : new StoredRepositories(List.of(), Map.of());
        Optional<EnvironmentDefinition> environment = repositories.definitions().isEmpty() ? Optional.empty()
                : Optional.of(new EnvironmentDefinition(repositories.definitions(), fromJson(rs.getString("workspace_setup")),
                        fromJson(rs.getString("workspace_teardown"))));
        SessionDefinition definition = new SessionDefinition(sessionId, rs.getString("repository"),
                rs.getString("branch"), Optional.of(rs.getString("base_branch")).filter(b -> !b.isEmpty()), fromJson(rs.getString("setup_commands")),
                fromJson(rs.getString("teardown_commands")), Optional.ofNullable(rs.getString("provider")),
                labelsFromJson(rs.getString("labels")), environment);
        long materialized = rs.getLong("materialized_at");
        Optional<Instant> materializedAt = rs.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(materialized));
        return new SessionRecord(definition, Optional.ofNullable(rs.getString("sandbox_id")),
                Optional.ofNullable(rs.getString("workdir")), materializedAt, rs.getLong("generation"),
                Instant.ofEpochMilli(rs.getLong("created_at")), Instant.ofEpochMilli(rs.getLong("last_used_at")),
                Optional.ofNullable(rs.getString("freshness")), instant(rs, "busy_until"), instant(rs, "stopped_at"), repositories.states());
    }

    private static Optional<Instant> instant(ResultSet rs, String column) throws SQLException {
        long millis = rs.getLong(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(millis));
    }

    @Override
    public void recordUse(String sessionId, Instant at, Optional<Instant> busyUntil) {
        write(c -> {
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
            return null;
        });
    }

    @Override
    public void recordBusy(String sessionId, Instant until) {
        update("UPDATE sessions SET busy_until = MAX(COALESCE(busy_until, 0), ?) WHERE session_id = ?", until.toEpochMilli(), sessionId);
    }

    @Override
    public void recordStopped(String sessionId, Instant at) {
        update("UPDATE sessions SET stopped_at = ? WHERE session_id = ?", at.toEpochMilli(), sessionId);
    }

    /** Runs {@code sql}, an update with {@code value} then the session id as its parameters. */
    private void update(String sql, Object value, String sessionId) {
        write(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setObject(1, value);
                ps.setString(2, sessionId);
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public void recordSetupStates(String sessionId, Map<String, String> states) {
        write(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE session_repositories SET setup_state = ? WHERE session_id = ? AND dir = ?")) {
                for (Map.Entry<String, String> state : states.entrySet()) {
                    ps.setString(1, state.getValue());
                    ps.setString(2, sessionId);
                    ps.setString(3, state.getKey());
                    ps.executeUpdate();
                }
            }
            return null;
        });
    }

    @Override
    public void recordFreshness(String sessionId, String freshness) {
        update("UPDATE sessions SET freshness = ? WHERE session_id = ?", freshness, sessionId);
    }

    @Override
    public void recordBaseBranch(String sessionId, String baseBranch) {
        update("UPDATE sessions SET base_branch = ? WHERE session_id = ?", baseBranch, sessionId);
    }

    @Override
    public void recordStart(String sessionId, Optional<String> sandboxId, String workdir, Instant materializedAt) {
        write(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE sessions SET sandbox_id = COALESCE(?, sandbox_id), workdir = ?,"
                    + " materialized_at = ?, last_used_at = ?, stopped_at = NULL WHERE session_id = ?")) {
                ps.setString(1, sandboxId.orElse(null));
                ps.setString(2, workdir);
                ps.setLong(3, materializedAt.toEpochMilli());
                ps.setLong(4, System.currentTimeMillis());
                ps.setString(5, sessionId);
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public boolean delete(String sessionId) {
        return write(c -> {
            int deleted;
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM sessions WHERE session_id = ?")) {
                ps.setString(1, sessionId);
                deleted = ps.executeUpdate();
            }
            for (String table : List.of("failed_setup_commands", "session_repositories", "command_journal")) {
                try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE session_id = ?")) {
                    ps.setString(1, sessionId);
                    ps.executeUpdate();
                }
            }
            return deleted > 0;
        });
    }

    @Override
    public void appendJournal(JournalEntry entry, int keep) {
        write(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO command_journal (session_id, started_at, duration_ms, origin,"
                    + " command, exit_code, timed_out, stdout_tail, stderr_tail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, entry.sessionId());
                ps.setLong(2, entry.startedAt().toEpochMilli());
                ps.setLong(3, entry.duration().toMillis());
                ps.setString(4, entry.origin());
                ps.setString(5, entry.command());
                ps.setInt(6, entry.exitCode());
                ps.setInt(7, entry.timedOut() ? 1 : 0);
                ps.setString(8, entry.stdoutTail());
                ps.setString(9, entry.stderrTail());
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM command_journal WHERE session_id = ? AND seq <= (SELECT seq"
                    + " FROM command_journal WHERE session_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)")) {
                ps.setString(1, entry.sessionId());
                ps.setString(2, entry.sessionId());
                ps.setInt(3, Math.max(keep, 0));
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public List<JournalEntry> journal(String sessionId, int limit) {
        return read(c -> {
            List<JournalEntry> newestFirst = new ArrayList<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT started_at, duration_ms, origin, command, exit_code, timed_out,"
                    + " stdout_tail, stderr_tail FROM command_journal WHERE session_id = ? ORDER BY seq DESC LIMIT ?")) {
                ps.setString(1, sessionId);
                ps.setInt(2, Math.max(limit, 0));
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        newestFirst.add(new JournalEntry(sessionId, Instant.ofEpochMilli(rs.getLong(1)), Duration.ofMillis(rs.getLong(2)),
                                rs.getString(3), rs.getString(4), rs.getInt(5), rs.getInt(6) != 0, rs.getString(7), rs.getString(8)));
                    }
                }
            }
            java.util.Collections.reverse(newestFirst);
            return newestFirst;
        });
    }

    @Override
    public long generation(String sessionId) {
        return read(c -> {
            try (PreparedStatement ps = c.prepareStatement("SELECT generation FROM session_generations WHERE session_id = ?")) {
                ps.setString(1, sessionId);
                try (ResultSet rs = ps.executeQuery()) {
                    return rs.next() ? rs.getLong(1) : 0L;
                }
            }
        });
    }

    @Override
    public long bumpGeneration(String sessionId) {
        return write(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO session_generations (session_id, generation) VALUES (?, 1)"
                    + " ON CONFLICT(session_id) DO UPDATE SET generation = generation + 1")) {
                ps.setString(1, sessionId);
                ps.executeUpdate();
            }
            try (PreparedStatement ps = c.prepareStatement("SELECT generation FROM session_generations WHERE session_id = ?")) {
                ps.setString(1, sessionId);
                try (ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            }
        });
    }

    @Override
    public Set<String> failedSetupCommands(String sessionId) {
        return read(c -> {
            Set<String> commands = new LinkedHashSet<>();
            try (PreparedStatement ps = c.prepareStatement("SELECT command FROM failed_setup_commands WHERE session_id = ? ORDER BY failed_at")) {
                ps.setString(1, sessionId);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        commands.add(rs.getString(1));
                    }
                }
            }
            return commands;
        });
    }

    @Override
    public void recordFailedSetupCommand(String sessionId, String command) {
        write(c -> {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO failed_setup_commands (session_id, command, failed_at)"
                    + " VALUES (?, ?, ?) ON CONFLICT(session_id, command) DO UPDATE SET failed_at = excluded.failed_at")) {
                ps.setString(1, sessionId);
                ps.setString(2, command);
                ps.setLong(3, System.currentTimeMillis());
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public void clearFailedSetupCommands(String sessionId) {
        write(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM failed_setup_commands WHERE session_id = ?")) {
                ps.setString(1, sessionId);
                ps.executeUpdate();
            }
            return null;
        });
    }

    @Override
    public LeaseAttempt tryAcquireLease(String sessionId, LeaseOwner owner, Duration ttl) {
        return write(c -> {
            long now = System.currentTimeMillis();
            Optional<LeaseOwner> replaced = Optional.empty();
            try (PreparedStatement ps = c.prepareStatement(
                    "SELECT owner_id, host, pid, process_start, expires_at FROM session_leases WHERE session_id = ?")) {
                ps.setString(1, sessionId);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next()) {
                        long start = rs.getLong("process_start");
                        LeaseOwner holder = new LeaseOwner(rs.getString("owner_id"), rs.getString("host"), rs.getLong("pid"),
                                rs.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(start)));
                        long expiresAt = rs.getLong("expires_at");
                        boolean free = holder.id().equals(owner.id()) || expiresAt <= now || holder.isProvablyGone();
                        if (!free) {
                            return new LeaseAttempt(false, holder, Instant.ofEpochMilli(expiresAt));
                        }
                        if (!holder.id().equals(owner.id())) {
                            LOG.debug("Taking the lease of session '{}' from {} (expired or gone)", sessionId, holder);
                            replaced = Optional.of(holder);
                        }
                    }
                }
            }
            long expiresAt = now + ttl.toMillis();
            try (PreparedStatement ps = c.prepareStatement("INSERT OR REPLACE INTO session_leases"
                    + " (session_id, owner_id, host, pid, process_start, expires_at) VALUES (?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, sessionId);
                ps.setString(2, owner.id());
                ps.setString(3, owner.host());
                ps.setLong(4, owner.pid());
                if (owner.processStart().isPresent()) {
                    ps.setLong(5, owner.processStart().get().toEpochMilli());
                } else {
                    ps.setNull(5, Types.INTEGER);
                }
                ps.setLong(6, expiresAt);
                ps.executeUpdate();
            }
            return new LeaseAttempt(true, owner, Instant.ofEpochMilli(expiresAt), replaced);
        });
    }

    @Override
    public boolean renewLease(String sessionId, String ownerId, Duration ttl) {
        return write(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE session_leases SET expires_at = ? WHERE session_id = ? AND owner_id = ?")) {
                ps.setLong(1, System.currentTimeMillis() + ttl.toMillis());
                ps.setString(2, sessionId);
                ps.setString(3, ownerId);
                return ps.executeUpdate() > 0;
            }
        });
    }

    @Override
    public void releaseLease(String sessionId, String ownerId) {
        write(c -> {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM session_leases WHERE session_id = ? AND owner_id = ?")) {
                ps.setString(1, sessionId);
                ps.setString(2, ownerId);
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

    @FunctionalInterface
    private interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    /** Runs {@code work} as one {@code BEGIN IMMEDIATE} transaction. */
    private synchronized <T> T write(Work<T> work) {
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

    private synchronized <T> T read(Work<T> work) {
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

    private String toJson(Object values) {
        try {
            return json.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("Could not encode " + values.getClass().getSimpleName() + " for the session store", e);
        }
    }

    private Map<String, String> labelsFromJson(String text) {
        try {
            return text == null ? Map.of() : Map.copyOf(json.readValue(text, STRING_MAP));
        } catch (JsonProcessingException e) {
            throw new SessionStoreException("Session store " + file + " holds unreadable labels: " + e.getOriginalMessage(), e);
        }
    }

    private List<String> fromJson(String text) {
        try {
            return text == null ? List.of() : List.copyOf(json.readValue(text, STRING_LIST));
        } catch (JsonProcessingException e) {
            throw new SessionStoreException("Session store " + file + " holds unreadable commands: " + e.getOriginalMessage(), e);
        }
    }
}
