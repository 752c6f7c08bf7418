package io.sandboxfactory.store.postgres;

import com.zaxxer.hikari.HikariConfig;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.store.api.SessionStoreProvider;
import io.sandboxfactory.store.api.StoreConfigurationException;
import io.sandboxfactory.store.api.StoreContext;
import io.sandboxfactory.store.api.StoreSettings;

import java.time.Duration;
import java.util.List;

/**
 * {@code store.type: postgres}: a {@link PostgresSessionStore} over a small HikariCP pool. The
 * password comes only from the environment variable {@code store.passwordEnv} names, and goes only
 * to the driver.
 */
public final class PostgresStoreProvider implements SessionStoreProvider {

    public static final String TYPE = "postgres";
    /**
     * Connections per factory unless {@code store.poolSize} says otherwise. An operation holds one
     * for a transaction of a few statements, but on a loaded host (load 20 on 2 cores) a holder may
     * be descheduled for seconds inside it; the factory daemon runs many commands of one factory at
     * once (16 in the load test), each with its own operations and lease heartbeats. 8 holds that
     * without waits that end in {@code STORE_BUSY}, and costs the server little: the pool keeps one
     * connection idle and grows only while that many operations overlap, so a fleet of short CLI
     * processes still holds about one each.
     */
    public static final int DEFAULT_POOL_SIZE = 8;
    /**
     * How many {@code store.connectTimeout}s an operation waits for a connection of a pool whose
     * connections are all in use (30 s by default). A busy pool is not a broken server: the wait only
     * has to outlast the slowest holder on a loaded host, and a command that waits a little longer
     * beats one that fails. A server that is down is reported after one {@code connectTimeout}.
     */
    static final int POOL_WAIT_TIMES_CONNECT_TIMEOUT = 6;

    @Override
    public String type() {
        return TYPE;
    }

    @Override
    public SessionStore open(StoreSettings config, StoreContext context) {
        String url = config.url().orElseThrow(() -> invalid("store.url is missing; store type postgres needs a JDBC URL like"
                + " jdbc:postgresql://host:5432/database."));
        if (!url.startsWith("jdbc:postgresql:")) {
            throw invalid("store.url '" + url + "' is invalid; a postgres store's URL starts with jdbc:postgresql:.");
        }
        String description = "postgres " + url + config.schema().map(s -> " (schema " + s + ")").orElse("");
        StoreConnections connections = new StoreConnections(poolConfig(url, config, context), poolWait(config));
        try {
            return PostgresSessionStore.open(connections, config.schema(), description);
        } catch (RuntimeException e) {
            connections.close();
            throw e;
        }
    }

    /** How long an operation waits for one of the pool's connections to come free. */
    static Duration poolWait(StoreSettings config) {
        return config.connectTimeout().multipliedBy(POOL_WAIT_TIMES_CONNECT_TIMEOUT);
    }

    /** The pool of a store at {@code url}: every connection it makes is configured here. */
    static HikariConfig poolConfig(String url, StoreSettings config, StoreContext context) {
        HikariConfig pool = new HikariConfig();
        pool.setPoolName("sandbox-factory-store");
        pool.setJdbcUrl(url);
        config.user().ifPresent(pool::setUsername);
        config.passwordEnv().ifPresent(variable -> pool.setPassword(context.variable(variable).orElseThrow(() -> invalid(
                "store.passwordEnv names " + variable + ", which is not set (or blank) in the environment."))));
        config.schema().ifPresent(pool::setSchema);
        pool.setMaximumPoolSize(config.poolSize().orElse(DEFAULT_POOL_SIZE));
        pool.setMinimumIdle(1);
        // One slice of the pool wait: StoreConnections waits on while nothing failed (see there).
        pool.setConnectionTimeout(config.connectTimeout().toMillis());
        pool.setValidationTimeout(Math.min(config.connectTimeout().toMillis(), 5_000));
        // The migration below is the first connection and reports an unreachable server clearly.
        pool.setInitializationFailTimeout(-1);
        pool.addDataSourceProperty("connectTimeout", String.valueOf(Math.max(1, config.connectTimeout().toSeconds())));
        pool.addDataSourceProperty("ApplicationName", "sandbox-factory");
        // A replica paused inside a transaction (SIGSTOP, a VM freeze) would hold its rows' locks for
        // as long as it stays paused, and the lease it held could never be taken over: the server
        // ends such a session after one lease time instead. No operation idles inside its transaction.
        pool.addDataSourceProperty("options", "-c idle_in_transaction_session_timeout=" + Math.max(1_000, config.leaseTtl().toMillis()));
        return pool;
    }

    private static StoreConfigurationException invalid(String message) {
        return new StoreConfigurationException(message);
    }

    @Override
    public List<ErrorCodeSupplier> errorCodes() {
        return List.of(PostgresErrorCode.values());
    }
}
