package io.sandboxfactory.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLTransientConnectionException;
import java.util.Properties;

/**
 * The store's connections: from its pool, and, when the pool holds none at all and has none to give
 * within {@code connectTimeout}, one made directly with the same settings. After an outage the pool
 * retries in the background with a backoff of up to 5 s (HikariCP's, not configurable), so without
 * this the first operations after the server is back would still fail as "unreachable".
 */
final class StoreConnections implements AutoCloseable {

    private final HikariDataSource pool;
    private final HikariConfig config;

    StoreConnections(HikariConfig config) {
        this.config = config;
        this.pool = new HikariDataSource(config);
    }

    Connection get() throws SQLException {
        try {
            return pool.getConnection();
        } catch (SQLTransientConnectionException timedOut) {
            if (pool.getHikariPoolMXBean() == null || pool.getHikariPoolMXBean().getTotalConnections() > 0) {
                throw timedOut;
            }
            return direct();
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
}
