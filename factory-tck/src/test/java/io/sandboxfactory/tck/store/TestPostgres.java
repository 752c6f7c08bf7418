package io.sandboxfactory.tck.store;

import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.core.store.SessionStore;
import io.sandboxfactory.core.store.StoreContext;
import io.sandboxfactory.store.postgres.PostgresStoreProvider;
import org.junit.jupiter.api.Assumptions;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The PostgreSQL server of the tests: {@code scripts/postgres-up.sh}'s, on loopback, reached with
 * the same {@code SF_PG_*} knobs. Without one the tests are skipped with a message, unless {@code
 * CI=true}, where they fail: a CI machine cannot pass by skipping.
 */
final class TestPostgres {

    static final String PASSWORD_VARIABLE = "SF_PG_PASSWORD";

    private TestPostgres() {
    }

    static String url() {
        return "jdbc:postgresql://127.0.0.1:" + env("SF_PG_PORT", "55432") + "/" + env("SF_PG_DATABASE", "sandbox_factory");
    }

    static String user() {
        return env("SF_PG_USER", "sandbox_factory");
    }

    static String password() {
        return env(PASSWORD_VARIABLE, "sandbox-factory-test");
    }

    /** The environment a factory or store gets: the password under the variable {@code passwordEnv} names. */
    static Map<String, String> environment() {
        return Map.of(PASSWORD_VARIABLE, password());
    }

    /** Skips (or, in CI, fails) unless the server answers. */
    static void require() {
        try (Connection ignored = DriverManager.getConnection(url(), user(), password())) {
            return;
        } catch (SQLException e) {
            String why = "No PostgreSQL server answers at " + url() + " as " + user() + " (" + e.getMessage()
                    + "); start one with scripts/postgres-up.sh";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError(why + ". CI=true: the PostgreSQL store tests must not be skipped.", e);
            }
            Assumptions.abort(why + ".");
        }
    }

    /** A schema no other test class or run uses. */
    static String freshSchema(String prefix) {
        return prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
    }

    static StoreConfig config(String schema, Duration leaseTtl) {
        return new StoreConfig("postgres", Optional.of(url()), Optional.of(user()), Optional.of(PASSWORD_VARIABLE), Optional.of(schema),
                Optional.of(4), leaseTtl, Duration.ofSeconds(3));
    }

    static SessionStore open(String schema, Path stateDirectory) {
        return new PostgresStoreProvider().open(config(schema, StoreConfig.DEFAULT_LEASE_TTL), new StoreContext(stateDirectory, environment()));
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
