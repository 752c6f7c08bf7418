package io.sandboxfactory.store.postgres.testing;

import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.store.api.StoreContext;
import io.sandboxfactory.store.postgres.PostgresStoreProvider;
import org.junit.jupiter.api.Assumptions;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The PostgreSQL server of the tests: {@code scripts/postgres-up.sh}'s, on loopback, reached with
 * the same {@code SF_PG_*} knobs. Without one the tests are skipped with a message, unless {@code
 * CI=true}, where they fail: a CI machine cannot pass by skipping. Shared with factory-tck (test-jar).
 */
public final class TestPostgres {

    public static final String PASSWORD_VARIABLE = "SF_PG_PASSWORD";

    private TestPostgres() {
    }

    /** The port of the shared test server ({@code SF_PG_PORT}, default 55432). */
    public static int port() {
        return Integer.parseInt(env("SF_PG_PORT", "55432"));
    }

    public static String url() {
        return url(port());
    }

    /** The tests' database on a server at {@code port} of loopback. */
    public static String url(int port) {
        return "jdbc:postgresql://127.0.0.1:" + port + "/" + env("SF_PG_DATABASE", "sandbox_factory");
    }

    public static String user() {
        return env("SF_PG_USER", "sandbox_factory");
    }

    public static String password() {
        return env(PASSWORD_VARIABLE, "sandbox-factory-test");
    }

    /** The environment a factory or store gets: the password under the variable {@code passwordEnv} names. */
    public static Map<String, String> environment() {
        return Map.of(PASSWORD_VARIABLE, password());
    }

    /**
     * The variables that point a factory at the store {@code url}, schema {@code schema}, as a
     * deployment would set them, with the password variable they name.
     */
    public static Map<String, String> storeEnvironment(String url, String schema, Duration leaseTtl, Duration connectTimeout) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("FACTORY_STORE_TYPE", "postgres");
        env.put("FACTORY_STORE_URL", url);
        env.put("FACTORY_STORE_USER", user());
        env.put("FACTORY_STORE_PASSWORD_ENV", PASSWORD_VARIABLE);
        env.put("FACTORY_STORE_SCHEMA", schema);
        env.put("FACTORY_STORE_LEASE_TTL", leaseTtl.toMillis() + "ms");
        env.put("FACTORY_STORE_CONNECT_TIMEOUT", connectTimeout.toMillis() + "ms");
        env.putAll(environment());
        return env;
    }

    /** Skips (or, in CI, fails) unless the shared server answers. */
    public static void require() {
        try (Connection ignored = connect(url())) {
            return;
        } catch (SQLException e) {
            unavailable("No PostgreSQL server answers at " + url() + " as " + user() + " (" + e.getMessage()
                    + "); start one with scripts/postgres-up.sh", e);
        }
    }

    /** Skips the test with {@code why}, or fails it when {@code CI=true}. */
    public static void unavailable(String why, Throwable cause) {
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new AssertionError(why + ". CI=true: the PostgreSQL store tests must not be skipped.", cause);
        }
        Assumptions.abort(why + ".");
    }

    /** A connection as the tests' role, for reading what the store wrote behind its back. */
    public static Connection connect(String url) throws SQLException {
        return DriverManager.getConnection(url, user(), password());
    }

    /** A schema no other test class or run uses. */
    public static String freshSchema(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    public static StoreConfig config(String schema, Duration leaseTtl) {
        return new StoreConfig("postgres", Optional.of(url()), Optional.of(user()), Optional.of(PASSWORD_VARIABLE), Optional.of(schema),
                Optional.of(4), leaseTtl, Duration.ofSeconds(3));
    }

    public static SessionStore open(String schema, Path stateDirectory) {
        return new PostgresStoreProvider().open(config(schema, StoreConfig.DEFAULT_LEASE_TTL), new StoreContext(stateDirectory, environment()));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
