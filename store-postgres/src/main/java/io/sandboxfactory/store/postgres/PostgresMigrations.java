package io.sandboxfactory.store.postgres;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.store.api.SessionStoreException;
import io.sandboxfactory.store.jdbc.CommandRows;
import io.sandboxfactory.store.jdbc.SessionRows;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;

/**
 * The store's versioned schema: append-only steps, tracked in {@code schema_version}, applied in one
 * transaction under a transaction-level advisory lock, so replicas starting together migrate once
 * and the others wait and find the schema current. A schema newer than this code is refused.
 */
final class PostgresMigrations {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresMigrations.class);

    /** Step {@code i} brings the schema to version {@code i + 1}. Append only; never edit a released step. */
    static final List<List<String>> STEPS = List.of(List.of(
            "CREATE TABLE sessions (session_id TEXT PRIMARY KEY, repository TEXT NOT NULL, branch TEXT NOT NULL,"
                    + " base_branch TEXT NOT NULL, setup_commands TEXT NOT NULL, teardown_commands TEXT NOT NULL, provider TEXT,"
                    + " sandbox_id TEXT, workdir TEXT, materialized_at BIGINT, created_at BIGINT NOT NULL, last_used_at BIGINT NOT NULL,"
                    + " labels TEXT NOT NULL DEFAULT '{}', freshness TEXT, busy_until BIGINT, stopped_at BIGINT,"
                    + " environment BOOLEAN NOT NULL DEFAULT false, workspace_setup TEXT NOT NULL DEFAULT '[]',"
                    + " workspace_teardown TEXT NOT NULL DEFAULT '[]')",
            "CREATE TABLE session_repositories (session_id TEXT NOT NULL, position INTEGER NOT NULL, repository TEXT NOT NULL,"
                    + " dir TEXT NOT NULL, base_branch TEXT NOT NULL, setup_commands TEXT NOT NULL, teardown_commands TEXT NOT NULL,"
                    + " setup_state TEXT, PRIMARY KEY (session_id, position))",
            "CREATE TABLE session_generations (session_id TEXT PRIMARY KEY, generation BIGINT NOT NULL)",
            "CREATE TABLE failed_setup_commands (session_id TEXT NOT NULL, command TEXT NOT NULL, failed_at BIGINT NOT NULL,"
                    + " PRIMARY KEY (session_id, command))",
            // One row per session for ever: its fencing token only grows. Expiry is the server's clock.
            "CREATE TABLE leases (session_id TEXT PRIMARY KEY, fencing_token BIGINT NOT NULL, owner_id TEXT, host TEXT, pid BIGINT,"
                    + " process_start BIGINT, expires_at TIMESTAMPTZ NOT NULL)"),
            // The command journal (design §7.1): the last entries of every session, dropped with it.
            List.of("CREATE TABLE command_journal (seq BIGSERIAL PRIMARY KEY, session_id TEXT NOT NULL, started_at BIGINT NOT NULL,"
                    + " duration_ms BIGINT NOT NULL, origin TEXT NOT NULL, command TEXT NOT NULL, exit_code INTEGER NOT NULL,"
                    + " timed_out INTEGER NOT NULL, stdout_tail TEXT NOT NULL, stderr_tail TEXT NOT NULL)",
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

    /** Any number, fixed: it only has to differ from the advisory locks of other applications. */
    private static final long LOCK_BASE = 0x5346_5354_0000_0000L;

    private PostgresMigrations() {
    }

    /** Brings the schema to {@link #STEPS}' version; returns it. */
    static int migrate(Connection c, Optional<String> schema, String store) throws SQLException {
        try (PreparedStatement lock = c.prepareStatement("SELECT pg_advisory_xact_lock(?)")) {
            lock.setLong(1, LOCK_BASE + schema.orElse("").hashCode());
            lock.execute();
        }
        try (Statement s = c.createStatement()) {
            if (schema.isPresent()) {
                // Validated as a plain identifier by the factory (StoreSettings), so it can stand in the statement.
                s.execute("CREATE SCHEMA IF NOT EXISTS " + schema.get());
            }
            s.execute("CREATE TABLE IF NOT EXISTS schema_version (version INTEGER NOT NULL)");
            int version;
            try (ResultSet rs = s.executeQuery("SELECT version FROM schema_version")) {
                version = rs.next() ? rs.getInt(1) : -1;
            }
            if (version < 0) {
                s.execute("INSERT INTO schema_version (version) VALUES (0)");
                version = 0;
            }
            if (version > STEPS.size()) {
                throw new SessionStoreException(StandardErrorCode.SESSION_STORE, "Session store " + store + " has schema version " + version
                        + ", newer than this version of Sandbox Factory understands (" + STEPS.size() + "); upgrade it.", null);
            }
            for (int step = version; step < STEPS.size(); step++) {
                for (String sql : STEPS.get(step)) {
                    s.execute(sql);
                }
                s.execute("UPDATE schema_version SET version = " + (step + 1));
                LOG.info("Session store {} migrated to schema version {}", store, step + 1);
            }
            return STEPS.size();
        }
    }
}
