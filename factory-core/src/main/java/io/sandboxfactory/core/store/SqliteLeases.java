package io.sandboxfactory.core.store;

import io.sandboxfactory.store.api.Fence;
import io.sandboxfactory.store.api.LeaseAttempt;
import io.sandboxfactory.store.api.LeaseOwner;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The lease statements of a {@link SqliteSessionStore}, each run inside the caller's write
 * transaction, which holds the file's write lock: no other acquisition comes between a read and
 * the write it decides. A lease row outlives its release, so its fencing token only grows.
 */
final class SqliteLeases {

    private static final Logger LOG = LoggerFactory.getLogger(SqliteLeases.class);

    private SqliteLeases() {
    }

    static long currentToken(Connection c, String sessionId) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT fencing_token FROM leases WHERE session_id = ?")) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0L;
            }
        }
    }

    static LeaseAttempt tryAcquire(Connection c, String sessionId, LeaseOwner owner, Duration ttl) throws SQLException {
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
    }

    static boolean renew(Connection c, String sessionId, String ownerId, Fence fence, Duration ttl) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE leases SET expires_at = ?"
                + " WHERE session_id = ? AND owner_id = ? AND fencing_token = ?")) {
            ps.setLong(1, System.currentTimeMillis() + ttl.toMillis());
            ps.setString(2, sessionId);
            ps.setString(3, ownerId);
            ps.setLong(4, fence.token());
            return ps.executeUpdate() > 0;
        }
    }

    static void release(Connection c, String sessionId, String ownerId, Fence fence) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE leases SET owner_id = NULL, host = NULL, pid = NULL,"
                + " process_start = NULL, process_start_stamp = NULL, expires_at = 0 WHERE session_id = ? AND owner_id = ? AND fencing_token = ?")) {
            ps.setString(1, sessionId);
            ps.setString(2, ownerId);
            ps.setLong(3, fence.token());
            ps.executeUpdate();
        }
    }
}
