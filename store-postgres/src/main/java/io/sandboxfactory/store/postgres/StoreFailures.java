package io.sandboxfactory.store.postgres;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.DurationText;
import io.sandboxfactory.store.api.SessionStoreException;

import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;

/** One sentence for a failed store operation; an unreachable server says so and what it means. */
final class StoreFailures {

    private StoreFailures() {
    }

    static SessionStoreException of(String store, SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof StoreConnections.PoolBusyException busy) {
                return new SessionStoreException(PostgresErrorCode.STORE_BUSY, "Session store " + store + " is busy: all " + busy.poolSize()
                        + " connections of this process were in use for " + DurationText.of(busy.waited())
                        + "; raise store.poolSize or store.connectTimeout (an operation waits " + PostgresStoreProvider.POOL_WAIT_TIMES_CONNECT_TIMEOUT
                        + " times it), or run fewer commands at once.", e);
            }
        }
        if (unreachable(e)) {
            return new SessionStoreException(StandardErrorCode.SESSION_STORE,
                    "Session store " + store + " is unreachable (" + rootMessage(e)
                    + "); sessions cannot be opened, retired or looked up until it answers again.", e);
        }
        return new SessionStoreException(StandardErrorCode.SESSION_STORE, "Session store " + store + " failed: " + rootMessage(e), e);
    }

    /** A pool timeout after a failed connection attempt, or SQL state class 08 (connection exception) or 57P0x (server shutting down, restarting). */
    private static boolean unreachable(SQLException e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SQLTransientConnectionException) {
                return true;
            }
            if (t instanceof SQLException sql && sql.getSQLState() != null
                    && (sql.getSQLState().startsWith("08") || sql.getSQLState().startsWith("57P"))) {
                return true;
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() == null ? root.getClass().getSimpleName() : root.getMessage();
        return message.strip();
    }
}
