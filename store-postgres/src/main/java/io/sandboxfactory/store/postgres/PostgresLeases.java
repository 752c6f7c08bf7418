package io.sandboxfactory.store.postgres;

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
 * The lease statements, each run inside the caller's transaction. A session's lease is one row for
 * ever (its fencing token only grows); an acquisition locks only that row, and skips it when another
 * transaction holds it.
 */
final class PostgresLeases {

    private static final Logger LOG = LoggerFactory.getLogger(PostgresLeases.class);
    /** Who a refusal names when the row is locked by an acquirer whose owner is not visible yet. */
    private static final LeaseOwner ANOTHER_ACQUIRER = new LeaseOwner("another-acquirer", "(being acquired)", 0, Optional.empty(), "");
    private static final String COLUMNS = "fencing_token, owner_id, host, pid, process_start, process_start_stamp, expires_at,"
            + " clock_timestamp() AS now";

    /** A lease row as read, with the server's time of reading. */
    private record Row(long token, Optional<LeaseOwner> owner, Instant expiresAt, Instant now) {
        boolean freeFor(LeaseOwner asking) {
            return owner.isEmpty() || !expiresAt.isAfter(now) || owner.get().id().equals(asking.id()) || owner.get().isProvablyGone();
        }

        LeaseAttempt refusal() {
            return new LeaseAttempt(false, owner.orElse(ANOTHER_ACQUIRER), expiresAt, Optional.empty(), token);
        }
    }

    LeaseAttempt tryAcquire(Connection c, String sessionId, LeaseOwner owner, Duration ttl) throws SQLException {
        Optional<Row> locked = read(c, sessionId, " FOR UPDATE SKIP LOCKED");
        if (locked.isEmpty()) {
            Optional<Row> seen = read(c, sessionId, "");
            if (seen.isPresent()) {
                return seen.get().refusal();
            }
            return insertFirst(c, sessionId, owner, ttl);
        }
        Row row = locked.get();
        if (!row.freeFor(owner)) {
            return row.refusal();
        }
        Optional<LeaseOwner> replaced = row.owner().filter(o -> !o.id().equals(owner.id()));
        replaced.ifPresent(o -> LOG.debug("Taking the lease of session '{}' from {} (expired or gone)", sessionId, o));
        try (PreparedStatement ps = c.prepareStatement("UPDATE leases SET fencing_token = fencing_token + 1, owner_id = ?, host = ?,"
                + " pid = ?, process_start = ?, process_start_stamp = ?, expires_at = clock_timestamp() + ? * interval '1 millisecond'"
                + " WHERE session_id = ? RETURNING fencing_token, expires_at")) {
            bindOwner(ps, owner, ttl);
            ps.setString(7, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                return new LeaseAttempt(true, owner, rs.getTimestamp(2).toInstant(), replaced, rs.getLong(1));
            }
        }
    }

    /** The session's first acquisition; a concurrent first one wins the insert, and this one is refused. */
    private LeaseAttempt insertFirst(Connection c, String sessionId, LeaseOwner owner, Duration ttl) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO leases (owner_id, host, pid, process_start, process_start_stamp,"
                + " expires_at, session_id, fencing_token) VALUES (?, ?, ?, ?, ?, clock_timestamp() + ? * interval '1 millisecond', ?, 1)"
                + " ON CONFLICT (session_id) DO NOTHING RETURNING fencing_token, expires_at")) {
            bindOwner(ps, owner, ttl);
            ps.setString(7, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                if (rs.next()) {
                    return new LeaseAttempt(true, owner, rs.getTimestamp(2).toInstant(), Optional.empty(), rs.getLong(1));
                }
            }
        }
        return read(c, sessionId, "").map(Row::refusal)
                .orElseGet(() -> new LeaseAttempt(false, ANOTHER_ACQUIRER, Instant.now(), Optional.empty(), 0));
    }

    boolean renew(Connection c, String sessionId, String ownerId, Fence fence, Duration ttl) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE leases SET expires_at = clock_timestamp() + ? * interval '1 millisecond'"
                + " WHERE session_id = ? AND owner_id = ? AND fencing_token = ?")) {
            ps.setDouble(1, ttl.toMillis());
            ps.setString(2, sessionId);
            ps.setString(3, ownerId);
            ps.setLong(4, fence.token());
            return ps.executeUpdate() > 0;
        }
    }

    void release(Connection c, String sessionId, String ownerId, Fence fence) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("UPDATE leases SET owner_id = NULL, host = NULL, pid = NULL, process_start = NULL,"
                + " process_start_stamp = NULL, expires_at = clock_timestamp() WHERE session_id = ? AND owner_id = ? AND fencing_token = ?")) {
            ps.setString(1, sessionId);
            ps.setString(2, ownerId);
            ps.setLong(3, fence.token());
            ps.executeUpdate();
        }
    }

    private static void bindOwner(PreparedStatement ps, LeaseOwner owner, Duration ttl) throws SQLException {
        ps.setString(1, owner.id());
        ps.setString(2, owner.host());
        ps.setLong(3, owner.pid());
        if (owner.processStart().isPresent()) {
            ps.setLong(4, owner.processStart().get().toEpochMilli());
        } else {
            ps.setNull(4, Types.BIGINT);
        }
        ps.setString(5, owner.processStartStamp().isEmpty() ? null : owner.processStartStamp());
        ps.setDouble(6, ttl.toMillis());
    }

    private static Optional<Row> read(Connection c, String sessionId, String locking) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT " + COLUMNS + " FROM leases WHERE session_id = ?" + locking)) {
            ps.setString(1, sessionId);
            try (ResultSet rs = ps.executeQuery()) {
                if (!rs.next()) {
                    return Optional.empty();
                }
                String ownerId = rs.getString("owner_id");
                Optional<LeaseOwner> owner = Optional.empty();
                if (ownerId != null) {
                    long start = rs.getLong("process_start");
                    Optional<Instant> started = rs.wasNull() ? Optional.empty() : Optional.of(Instant.ofEpochMilli(start));
                    owner = Optional.of(new LeaseOwner(ownerId, rs.getString("host"), rs.getLong("pid"), started,
                            Objects.requireNonNullElse(rs.getString("process_start_stamp"), "")));
                }
                return Optional.of(new Row(rs.getLong("fencing_token"), owner, rs.getTimestamp("expires_at").toInstant(),
                        rs.getTimestamp("now").toInstant()));
            }
        }
    }
}
