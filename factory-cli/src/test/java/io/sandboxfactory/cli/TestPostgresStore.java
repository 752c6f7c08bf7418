package io.sandboxfactory.cli;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.util.UUID;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The shared PostgreSQL test server (scripts/postgres-up.sh; SF_PG_* override its port, database,
 * user and password) as the CLI's store: a schema of its own per use, the password by variable name.
 */
final class TestPostgresStore {

    static final int SERVER_PORT = Integer.parseInt(System.getenv().getOrDefault("SF_PG_PORT", "55432"));

    private TestPostgresStore() {
    }

    /** Skips the test without a server; fails it with CI=true, where the PostgreSQL tests must run. */
    static void requireServer() {
        try (Socket ignored = new Socket(InetAddress.getLoopbackAddress(), SERVER_PORT)) {
            return;
        } catch (IOException e) {
            String why = "No PostgreSQL server listens on 127.0.0.1:" + SERVER_PORT + "; start one with scripts/postgres-up.sh";
            if ("true".equalsIgnoreCase(System.getenv("CI"))) {
                throw new AssertionError(why + ". CI=true: the PostgreSQL tests must not be skipped.", e);
            }
            Assumptions.abort(why);
        }
    }

    /** {@code cli} on the server reached at {@code port} (the server's own, or a relay's), in a new schema named {@code prefix_…}. */
    static CliProcess on(CliProcess cli, int port, String prefix) {
        variables(port, prefix).forEach(cli::env);
        return cli;
    }

    /** The variables that select the store on the server at {@code port}, in a new schema named {@code prefix_…}, with its password. */
    static Map<String, String> variables(int port, String prefix) {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("FACTORY_STORE_TYPE", "postgres");
        env.put("FACTORY_STORE_URL", "jdbc:postgresql://127.0.0.1:" + port + "/"
                + System.getenv().getOrDefault("SF_PG_DATABASE", "sandbox_factory"));
        env.put("FACTORY_STORE_USER", System.getenv().getOrDefault("SF_PG_USER", "sandbox_factory"));
        env.put("FACTORY_STORE_PASSWORD_ENV", "SF_PG_PASSWORD");
        env.put("SF_PG_PASSWORD", System.getenv().getOrDefault("SF_PG_PASSWORD", "sandbox-factory-test"));
        env.put("FACTORY_STORE_SCHEMA", prefix + "_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
        return env;
    }
}
