package io.sandboxfactory.store.jdbc;

import io.sandboxfactory.api.error.StandardErrorCode;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.store.api.EnvironmentDefinition;
import io.sandboxfactory.store.api.SessionEgress;
import io.sandboxfactory.store.api.SessionDefinition;
import io.sandboxfactory.store.api.SessionRecord;
import io.sandboxfactory.store.api.SessionStoreException;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * How a JDBC session store's rows become {@link SessionRecord}s and back, for stores whose tables
 * have the columns of the embedded one (SQLite, PostgreSQL): {@code sessions} (commands and labels
 * as JSON text, times as epoch milliseconds, {@code environment} a boolean or 0/1, {@code
 * ephemeral_owner} a {@link HostProcess#encoded() HostProcess} or null), {@code
 * session_repositories} and {@code session_generations}.
 */
public final class SessionRows {

    private static final TypeReference<List<String>> STRING_LIST = new TypeReference<>() { };
    private static final TypeReference<Map<String, String>> STRING_MAP = new TypeReference<>() { };

    /** Selects what {@link #toRecord} reads; append {@code WHERE}/{@code ORDER BY} on {@code s}. */
    public static final String SELECT_RECORD = "SELECT s.session_id, s.repository, s.branch, s.base_branch, s.setup_commands,"
            + " s.teardown_commands, s.provider, s.sandbox_id, s.workdir, s.materialized_at, s.created_at, s.last_used_at,"
            + " s.labels, s.freshness, s.busy_until, s.stopped_at, s.environment, s.workspace_setup, s.workspace_teardown, s.ephemeral_owner,"
            + " s.setup_secrets, COALESCE(g.generation, 0) AS generation FROM sessions s"
            + " LEFT JOIN session_generations g ON g.session_id = s.session_id";

    private final ObjectMapper json = new ObjectMapper();
    private final String store;

    /** @param store names the store in messages about unreadable rows */
    public SessionRows(String store) {
        this.store = store;
    }

    /** Keeps an environment's repositories, each in its own row; a reopen replaces them (their setup states start pending). */
    public void writeRepositories(Connection c, SessionDefinition d) throws SQLException {
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

    /** The record of the current row of a {@link #SELECT_RECORD} result. */
    public SessionRecord toRecord(Connection c, ResultSet rs) throws SQLException {
        String sessionId = rs.getString("session_id");
        StoredRepositories repositories = rs.getBoolean("environment") ? readRepositories(c, sessionId)
                : new StoredRepositories(List.of(), Map.of());
        Optional<EnvironmentDefinition> environment = repositories.definitions().isEmpty() ? Optional.empty()
                : Optional.of(new EnvironmentDefinition(repositories.definitions(), fromJson(rs.getString("workspace_setup")),
                        fromJson(rs.getString("workspace_teardown"))));
        SessionDefinition definition = new SessionDefinition(sessionId, rs.getString("repository"),
                rs.getString("branch"), Optional.of(rs.getString("base_branch")).filter(b -> !b.isEmpty()), fromJson(rs.getString("setup_commands")),
                fromJson(rs.getString("teardown_commands")), Optional.ofNullable(rs.getString("provider")),
                labelsFromJson(rs.getString("labels")), environment,
                Optional.ofNullable(rs.getString("ephemeral_owner")).flatMap(HostProcess::parse),
                Optional.ofNullable(rs.getString("setup_secrets")).map(this::fromJson));
        return new SessionRecord(definition, Optional.ofNullable(rs.getString("sandbox_id")),
                Optional.ofNullable(rs.getString("workdir")), instant(rs, "materialized_at"), rs.getLong("generation"),
                Instant.ofEpochMilli(rs.getLong("created_at")), Instant.ofEpochMilli(rs.getLong("last_used_at")),
                Optional.ofNullable(rs.getString("freshness")), instant(rs, "busy_until"), instant(rs, "stopped_at"), repositories.states());
    }

    // ---- statements both JDBC stores run as they are, inside the caller's transaction -------------

    /**
     * The columns a register writes, as {@link #bindRegister} binds them; each store appends its own
     * {@code ON CONFLICT} clause, which sets {@code ephemeral_owner = excluded.ephemeral_owner} (a
     * {@code run}'s open claims the session, any other open clears the claim) and {@link
     * #KEEP_SETUP_SECRETS}.
     */
    public static final String INSERT_SESSION = "INSERT INTO sessions (session_id, repository, branch, base_branch, setup_commands,"
            + " teardown_commands, provider, created_at, last_used_at, labels, environment, workspace_setup, workspace_teardown,"
            + " ephemeral_owner, setup_secrets) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)";

    /** The {@code ON CONFLICT} assignment of the setup secrets' names: a register that names none keeps those stored. */
    public static final String KEEP_SETUP_SECRETS = "setup_secrets = COALESCE(excluded.setup_secrets, sessions.setup_secrets)";

    /** Binds {@link #INSERT_SESSION}'s parameters for {@code d} registered at {@code now}. */
    public void bindRegister(PreparedStatement ps, SessionDefinition d, long now) throws SQLException {
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
        ps.setBoolean(11, d.environment().isPresent());
        ps.setString(12, toJson(d.environment().map(EnvironmentDefinition::workspaceSetup).orElse(List.of())));
        ps.setString(13, toJson(d.environment().map(EnvironmentDefinition::workspaceTeardown).orElse(List.of())));
        ps.setString(14, d.ephemeralOwner().map(HostProcess::encoded).orElse(null));
        ps.setString(15, d.setupSecrets().map(this::toJson).orElse(null));
    }

    public Optional<SessionRecord> find(Connection c, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(SELECT_RECORD + " WHERE s.session_id = ?")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? Optional.of(toRecord(c, rs)) : Optional.empty();
            }
        }
    }

    public List<SessionRecord> list(Connection c) throws SQLException {
        List<SessionRecord> records = new ArrayList<>();
        try (PreparedStatement ps = c.prepareStatement(SELECT_RECORD + " ORDER BY s.session_id"); ResultSet rs = ps.executeQuery()) {
            while (rs.next()) {
                records.add(toRecord(c, rs));
            }
        }
        return records;
    }

    /** Runs {@code sql}, an update with {@code value} then the session id as its parameters. */
    public static void update(Connection c, String sql, Object value, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setObject(1, value);
            ps.setString(2, sessionId);
            ps.executeUpdate();
        }
    }

    public static void recordSetupStates(Connection c, String sessionId, Map<String, String> states) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE session_repositories SET setup_state = ? WHERE session_id = ? AND dir = ?")) {
            for (Map.Entry<String, String> state : states.entrySet()) {
                ps.setString(1, state.getValue());
                ps.setString(2, sessionId);
                ps.setString(3, state.getKey());
                ps.executeUpdate();
            }
        }
    }

    public static void recordStart(Connection c, String sessionId, Optional<String> sandboxId, String workdir, Instant materializedAt)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE sessions SET sandbox_id = COALESCE(?, sandbox_id), workdir = ?,"
                + " materialized_at = ?, last_used_at = ?, stopped_at = NULL WHERE session_id = ?")) {
            ps.setString(1, sandboxId.orElse(null));
            ps.setString(2, workdir);
            ps.setLong(3, materializedAt.toEpochMilli());
            ps.setLong(4, System.currentTimeMillis());
            ps.setString(5, sessionId);
            ps.executeUpdate();
        }
    }

    /** Deletes the record, its failed setup commands and repositories; generations and leases stay. */
    public static boolean delete(Connection c, String sessionId) throws SQLException {
        int deleted = 0;
        for (String table : List.of("sessions", "failed_setup_commands", "session_repositories", "command_journal", "running_commands",
                "session_egress")) {
            try (PreparedStatement ps = c.prepareStatement("DELETE FROM " + table + " WHERE session_id = ?")) {
                ps.setString(1, sessionId);
                int n = ps.executeUpdate();
                deleted = table.equals("sessions") ? n : deleted;
            }
        }
        return deleted > 0;
    }

    /** The table of each session's own egress rules, the same in every dialect. */
    public static final String CREATE_SESSION_EGRESS = "CREATE TABLE session_egress (session_id TEXT PRIMARY KEY,"
            + " allow_rules TEXT NOT NULL, deny_rules TEXT NOT NULL)";

    public SessionEgress egress(Connection c, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT allow_rules, deny_rules FROM session_egress WHERE session_id = ?")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? new SessionEgress(fromJson(rs.getString(1)), fromJson(rs.getString(2))) : SessionEgress.NONE;
            }
        }
    }

    public void recordEgress(Connection c, String sessionId, SessionEgress egress) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM session_egress WHERE session_id = ?")) {
            ps.setString(1, sessionId);
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO session_egress (session_id, allow_rules, deny_rules) VALUES (?, ?, ?)")) {
            ps.setString(1, sessionId);
            ps.setString(2, toJson(egress.allow()));
            ps.setString(3, toJson(egress.deny()));
            ps.executeUpdate();
        }
    }

    public static long generation(Connection c, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT generation FROM session_generations WHERE session_id = ?")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0L;
            }
        }
    }

    public static long bumpGeneration(Connection c, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO session_generations (session_id, generation) VALUES (?, 1)"
                + " ON CONFLICT (session_id) DO UPDATE SET generation = session_generations.generation + 1")) {
            ps.setString(1, sessionId);
            ps.executeUpdate();
        }
        return generation(c, sessionId);
    }

    private static Optional<Instant> instant(ResultSet rs, String column) throws SQLException {
        long millis = rs.getLong(column);
        return rs.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(millis));
    }

    /** Lists and maps as the JSON text the tables hold. */
    public String toJson(Object values) {
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
            throw new SessionStoreException(StandardErrorCode.SESSION_STORE,
                    "Session store " + store + " holds unreadable labels: " + e.getOriginalMessage(), e);
        }
    }

    private List<String> fromJson(String text) {
        try {
            return text == null ? List.of() : List.copyOf(json.readValue(text, STRING_LIST));
        } catch (JsonProcessingException e) {
            throw new SessionStoreException(StandardErrorCode.SESSION_STORE,
                    "Session store " + store + " holds unreadable commands: " + e.getOriginalMessage(), e);
        }
    }
}
