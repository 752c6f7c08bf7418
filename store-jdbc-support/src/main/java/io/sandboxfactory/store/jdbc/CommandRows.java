package io.sandboxfactory.store.jdbc;

import io.sandboxfactory.store.api.JournalEntry;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The statements on what ran in a session, the same in every dialect: the commands running now,
 * the command journal and the setup commands that failed. Beside {@link SessionRows}, which holds
 * the session's own row and its repositories.
 */
public final class CommandRows {

    private CommandRows() {
    }

    /**
     * The commands running now: one row per command, until when it counts as running (its runner
     * renews that while it runs; a crashed runner's row lapses and is dropped by the next command).
     */
    public static final String CREATE_RUNNING_COMMANDS = "CREATE TABLE running_commands (command_id TEXT PRIMARY KEY,"
            + " session_id TEXT NOT NULL, running_until BIGINT NOT NULL)";

    /** Writes the command's row while it runs ({@code runningUntil}), removes it when it ended; drops lapsed rows of the session. */
    public static void recordCommand(Connection c, String sessionId, String commandId, Instant at, Optional<Instant> runningUntil)
            throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM running_commands WHERE (session_id = ? AND running_until < ?)"
                + " OR command_id = ?")) {
            ps.setString(1, sessionId);
            ps.setLong(2, at.toEpochMilli());
            ps.setString(3, commandId);
            ps.executeUpdate();
        }
        if (runningUntil.isPresent()) {
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO running_commands (command_id, session_id, running_until)"
                    + " VALUES (?, ?, ?)")) {
                ps.setString(1, commandId);
                ps.setString(2, sessionId);
                ps.setLong(3, runningUntil.get().toEpochMilli());
                ps.executeUpdate();
            }
        }
    }

    /** The sessions with a command whose row has not lapsed at {@code now}. */
    public static Set<String> sessionsRunningCommands(Connection c, Instant now) throws SQLException {
        Set<String> sessions = new LinkedHashSet<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT DISTINCT session_id FROM running_commands WHERE running_until >= ?")) {
            ps.setLong(1, now.toEpochMilli());
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    sessions.add(rs.getString(1));
                }
            }
        }
        return sessions;
    }

    /** Appends {@code entry} and drops the session's entries beyond the newest {@code keep}. */
    public static void appendJournal(Connection c, JournalEntry entry, int keep) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO command_journal (session_id, started_at, duration_ms, origin,"
                + " command, exit_code, timed_out, stdout_tail, stderr_tail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, entry.sessionId());
            ps.setLong(2, entry.startedAt().toEpochMilli());
            ps.setLong(3, entry.duration().toMillis());
            ps.setString(4, entry.origin());
            ps.setString(5, storable(entry.command()));
            ps.setInt(6, entry.exitCode());
            ps.setInt(7, entry.timedOut() ? 1 : 0);
            ps.setString(8, storable(entry.stdoutTail()));
            ps.setString(9, storable(entry.stderrTail()));
            ps.executeUpdate();
        }
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM command_journal WHERE session_id = ? AND seq <= (SELECT seq"
                + " FROM command_journal WHERE session_id = ? ORDER BY seq DESC LIMIT 1 OFFSET ?)")) {
            ps.setString(1, entry.sessionId());
            ps.setString(2, entry.sessionId());
            ps.setInt(3, Math.max(keep, 0));
            ps.executeUpdate();
        }
    }

    /** The session's newest {@code limit} journal entries, oldest first. */
    public static List<JournalEntry> journal(Connection c, String sessionId, int limit) throws SQLException {
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
        Collections.reverse(newestFirst);
        return newestFirst;
    }

    /** Command output may hold NUL characters, which PostgreSQL text cannot. */
    private static String storable(String text) {
        return text.indexOf('\0') < 0 ? text : text.replace('\0', '\uFFFD');
    }

    public static Set<String> failedSetupCommands(Connection c, String sessionId) throws SQLException {
        Set<String> commands = new LinkedHashSet<>();
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT command FROM failed_setup_commands WHERE session_id = ? ORDER BY failed_at, command")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    commands.add(rs.getString(1));
                }
            }
        }
        return commands;
    }

    public static void recordFailedSetupCommand(Connection c, String sessionId, String command) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO failed_setup_commands (session_id, command, failed_at)"
                + " VALUES (?, ?, ?) ON CONFLICT (session_id, command) DO UPDATE SET failed_at = excluded.failed_at")) {
            ps.setString(1, sessionId);
            ps.setString(2, command);
            ps.setLong(3, System.currentTimeMillis());
            ps.executeUpdate();
        }
    }

    public static void clearFailedSetupCommands(Connection c, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("DELETE FROM failed_setup_commands WHERE session_id = ?")) {
            ps.setString(1, sessionId);
            ps.executeUpdate();
        }
    }
}
