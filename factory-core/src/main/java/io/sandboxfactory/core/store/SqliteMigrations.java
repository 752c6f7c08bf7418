package io.sandboxfactory.core.store;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.store.api.SessionStoreException;
import io.sandboxfactory.store.jdbc.CommandRows;
import io.sandboxfactory.store.jdbc.SessionRows;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** The schema of a {@link SqliteSessionStore}'s file, tracked in its {@code schema_version} table. */
final class SqliteMigrations {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteMigrations.class);

    /** Schema steps; step {@code i} brings the schema to version {@code i + 1}. Append only. */
    static final List<List<String>> STEPS = List.of(List.of(
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
            List.of(CommandRows.CREATE_RUNNING_COMMANDS),
            // Each session's own egress rules (--egress-allow, factory egress).
            List.of(SessionRows.CREATE_SESSION_EGRESS),
            // The names of the setup secrets its opens named (SessionDefinition.setupSecrets); never their values.
            List.of("ALTER TABLE sessions ADD COLUMN setup_secrets TEXT"));

    private SqliteMigrations() {
    }

    /** Brings the schema of {@code file}, on {@code c}, to the newest version; inside the caller's write transaction. */
    static void migrate(Connection c, Path file) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
            int version;
            try (ResultSet rs = s.executeQuery("SELECT version FROM schema_version")) {
                version = rs.next() ? rs.getInt(1) : 0;
            }
            if (version == 0) {
                s.execute("INSERT INTO schema_version (version) VALUES (0)");
            }
            if (version > STEPS.size()) {
                throw new SessionStoreException(StandardErrorCode.SESSION_STORE, "Session store " + file + " has schema version " + version
                        + ", newer than this version of Sandbox Factory understands (" + STEPS.size() + "); upgrade it.", null);
            }
            for (int step = version; step < STEPS.size(); step++) {
                for (String sql : STEPS.get(step)) {
                    s.execute(sql);
                }
                s.execute("UPDATE schema_version SET version = " + (step + 1));
                LOG.debug("Session store {} migrated to schema version {}", file, step + 1);
            }
        }
    }
}
