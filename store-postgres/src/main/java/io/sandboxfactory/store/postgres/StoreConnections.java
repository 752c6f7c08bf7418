package io.sandboxfactory.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import com.zaxxer.hikari.HikariPoolMXBean;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.time.Duration;
import java.util.Properties;

/**
 * The store's connections, from its pool. The pool's own wait ({@code connectionTimeout}) is one
 * {@code connectTimeout}; what happens when it runs out depends on why no connection came:
 * <ul>
 *   <li>The pool's last attempt to connect failed (HikariCP keeps that failure): the server is
 *   down or refuses. With no connection at all in the pool, one is made directly with the same
 *   settings, so the answer is the server's current one: after an outage the pool retries with a
 *   backoff of up to 5 s (HikariCP's, not configurable), and the first operations after the server
 *   is back would otherwise still fail as "unreachable".</li>
 *   <li>Nothing failed: every connection is in use (or a new one is still being made on a loaded
 *   host). That is no outage, so the caller waits on, up to {@code poolWait} in all, and then gets
 *   {@link PoolBusyException}: "busy", never "unreachable".</li>
 * </ul>
 */
final class StoreConnections implements AutoCloseable {

    private final HikariDataSource pool;
    private final HikariConfig config;
    private final Duration poolWait;

    StoreConnections(HikariConfig config, Duration poolWait) {
        this.config = config;
        this.poolWait = poolWait;
        registerDriver();
        this.pool = new HikariDataSource(config);
    }

    /**
     * HikariCP looks the URL's driver up in {@link java.sql.DriverManager}, which hands a caller only
     * drivers of the caller's own class loader, and which found at its start the drivers of the host's
     * class path only. Loaded as a plugin, this store's driver is in neither until its class
     * initializes and registers itself: this makes sure it did (and registers it again after a
     * {@code deregister}).
     */
    private static void registerDriver() {
        synchronized (org.postgresql.Driver.class) {
            try {
                if (!org.postgresql.Driver.isRegistered()) {
                    org.postgresql.Driver.register();
                }
            } catch (SQLException e) {
                throw new IllegalStateException("The PostgreSQL driver could not be registered: " + e.getMessage(), e);
            }
        }
    }

    Connection get() throws SQLException {
        long deadline = System.nanoTime() + poolWait.toNanos();
        while (true) {
            try {
                return pool.getConnection();
            } catch (SQLTransientConnectionException timedOut) {
                HikariPoolMXBean state = pool.getHikariPoolMXBean();
                if (timedOut.getCause() != null) {
                    if (state == null || state.getTotalConnections() == 0) {
                        return direct();
                    }
                    throw timedOut;
                }
                if (System.nanoTime() - deadline >= 0) {
                    throw new PoolBusyException(config.getMaximumPoolSize(), poolWait, timedOut);
                }
            }
        }
    }

    /** One unpooled connection, closed by its user; a failure is the server's current answer, not the pool's last one. */
    private Connection direct() throws SQLException {
        Properties properties = new Properties();
        properties.putAll(config.getDataSourceProperties());
        if (config.getUsername() != null) {
            properties.setProperty("user", config.getUsername());
        }
        if (config.getPassword() != null) {
            properties.setProperty("password", config.getPassword());
        }
        Connection connection = new org.postgresql.Driver().connect(config.getJdbcUrl(), properties);
        if (connection == null) {
            throw new SQLException("The PostgreSQL driver does not accept " + config.getJdbcUrl(), "08001");
        }
        if (config.getSchema() != null) {
            connection.setSchema(config.getSchema());
        }
        return connection;
    }

    @Override
    public void close() {
        pool.close();
    }

    /** No connection of the pool came free within the pool wait, while the server answered. */
    static final class PoolBusyException extends SQLTransientConnectionException {
        private static final long serialVersionUID = 1L;

        private final int poolSize;
        private final Duration waited;

        PoolBusyException(int poolSize, Duration waited, SQLException last) {
            super("all " + poolSize + " connections in use for " + waited.toSeconds() + " s", last.getSQLState(), last);
            this.poolSize = poolSize;
            this.waited = waited;
        }

        int poolSize() {
            return poolSize;
        }

        Duration waited() {
            return waited;
        }
    }
}
