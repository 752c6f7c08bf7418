package io.sandboxfactory.tck;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.FactoryConfigurationException;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.store.api.SessionStoreException;
import io.sandboxfactory.store.api.StoreConfigurationException;
import io.sandboxfactory.store.postgres.testing.TestPostgres;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Factories that share a PostgreSQL store, selected by {@code FACTORY_STORE_*} variables as a
 * deployment would, each with a state directory of its own (two hosts), on one local provider root
 * (the shared provider): one sandbox, one setup, and a retirement on one is seen by the other.
 */
class PostgresStoreFactoryTest {

    @TempDir
    Path tmp;

    @BeforeAll
    static void server() {
        TestPostgres.require();
    }

    private Map<String, String> storeEnvironment(String schema) {
        Map<String, String> env = new HashMap<>(System.getenv());
        env.keySet().removeIf(k -> k.startsWith("FACTORY_"));
        env.putAll(TestPostgres.storeEnvironment(TestPostgres.url(), schema, Duration.ofSeconds(2), StoreConfig.DEFAULT_CONNECT_TIMEOUT));
        return env;
    }

    private SandboxFactory host(String name, Map<String, String> env) throws IOException {
        return SandboxFactory.builder()
                .config(FactoryConfig.builder().provider("local")
                        .providerSection("local", Map.of("root", tmp.resolve("shared-sessions").toString())).build())
                .stateDirectory(Files.createDirectories(tmp.resolve("host-" + name)))
                .environment(env)
                .build();
    }

    private Path repository() throws Exception {
        Path repo = tmp.resolve("origin");
        Files.createDirectories(repo);
        run(repo, "git", "init", "-q", "-b", "main");
        Files.writeString(repo.resolve("README"), "fixture\n");
        run(repo, "git", "add", "README");
        run(repo, "git", "-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "init");
        return repo;
    }

    private static void run(Path dir, String... command) throws Exception {
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
    }

    @Test
    void twoHostsOpeningOneSessionMakeOneSandboxAndRunItsSetupOnceAndARetirementIsSeenByBoth() throws Exception {
        Map<String, String> env = storeEnvironment(TestPostgres.freshSchema("factory"));
        Path repo = repository();
        int threadsPerHost = 6;
        try (SandboxFactory a = host("a", env); SandboxFactory b = host("b", env)) {
            assertThat(a.sessionStore().toString()).contains("postgres").doesNotContain(TestPostgres.password());
            SessionSpec spec = SessionSpec.builder("shared").repository(repo.toString()).branch("work")
                    .setupCommands("echo ran >> ../setup-runs").build();
            ExecutorService pool = Executors.newFixedThreadPool(threadsPerHost * 2);
            try {
                CountDownLatch go = new CountDownLatch(1);
                List<Future<?>> opens = new ArrayList<>();
                for (int i = 0; i < threadsPerHost * 2; i++) {
                    SandboxFactory f = i % 2 == 0 ? a : b;
                    opens.add(pool.submit(() -> {
                        go.await();
                        return f.openSession(spec);
                    }));
                }
                go.countDown();
                for (Future<?> open : opens) {
                    open.get(3, TimeUnit.MINUTES);
                }
            } finally {
                pool.shutdownNow();
            }
            Path root = tmp.resolve("shared-sessions/shared");
            assertThat(Files.readAllLines(root.resolve("setup-runs"))).as("the setup ran once for both hosts").containsExactly("ran");
            assertThat(b.sessionStore().find("shared")).get().satisfies(r -> assertThat(r.materializedAt()).isPresent());

            assertThat(a.retire("shared", RetireMode.DESTROY).problems()).isEmpty();
            assertThat(b.sessionStore().find("shared")).as("host b sees host a's retirement").isEmpty();
            assertThat(b.sessionStore().generation("shared")).isEqualTo(1);
            assertThat(root).doesNotExist();
        }
    }

    /** A setup secret's name is kept in the store, never its value: a setup run again on another host reads it from that host. */
    @Test
    void aSetupRunAgainOnAnotherHostGetsTheSetupSecretWhoseValueNoRowHolds() throws Exception {
        String schema = TestPostgres.freshSchema("secrets");
        Map<String, String> env = storeEnvironment(schema);
        String secret = "plain-" + System.nanoTime();
        env.put("SETUP_VALUE_X", secret);
        Path repo = repository();
        SessionSpec spec = SessionSpec.builder("secrets").repository(repo.toString()).branch("work").setupSecrets("SETUP_VALUE_X")
                .setupCommands("if [ -n \"$SETUP_VALUE_X\" ]; then echo set; else echo unset; fi >> ../setup-saw").build();
        Path root = tmp.resolve("shared-sessions/secrets");
        try (SandboxFactory a = host("a", env)) {
            a.openSession(spec);
        }
        // The checkout is lost: the next start clones and runs the setup again.
        try (var files = Files.walk(root.resolve("origin"))) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
        try (SandboxFactory b = host("b", env)) {
            var resumed = b.openSession(SessionSpec.resume(b.sessionStore().find("secrets").orElseThrow().definition()).build()).awaitStarted();
            assertThat(Files.readAllLines(root.resolve("setup-saw"))).as("both setups had the variable").containsExactly("set", "set");
            assertThat(resumed.sandbox().executeCommand("printenv SETUP_VALUE_X; echo \"exit=$?\"").stdout().strip())
                    .as("a later command has no such variable").isEqualTo("exit=1");
        }
        try (Connection c = TestPostgres.connect(TestPostgres.url()); Statement s = c.createStatement()) {
            List<String> tables = new ArrayList<>();
            try (ResultSet names = c.getMetaData().getTables(null, schema, "%", new String[] {"TABLE"})) {
                while (names.next()) {
                    tables.add(names.getString("TABLE_NAME"));
                }
            }
            List<String> rows = new ArrayList<>();
            for (String table : tables) {
                try (ResultSet all = s.executeQuery("SELECT t::text FROM " + schema + "." + table + " t")) {
                    while (all.next()) {
                        rows.add(all.getString(1));
                    }
                }
            }
            assertThat(rows).as("rows of every table of the store").isNotEmpty().noneMatch(row -> row.contains(secret));
            try (ResultSet names = s.executeQuery("SELECT setup_secrets FROM " + schema + ".sessions WHERE session_id = 'secrets'")) {
                assertThat(names.next()).isTrue();
                assertThat(names.getString(1)).as("the names the open gave").isEqualTo("[\"SETUP_VALUE_X\"]");
            }
        }
    }

    @Test
    void aWrongPasswordFailsTheFactoryNamingTheStoreButNeverThePassword() throws IOException {
        Map<String, String> env = storeEnvironment(TestPostgres.freshSchema("badpw"));
        String secret = "not-the-password-" + System.nanoTime();
        env.put(TestPostgres.PASSWORD_VARIABLE, secret);
        assertThatThrownBy(() -> host("bad", env))
                .isInstanceOf(SessionStoreException.class)
                .hasMessageContaining("Session store postgres " + TestPostgres.url())
                .hasMessageContaining("password authentication failed")
                .satisfies(e -> assertThat(stackText(e)).doesNotContain(secret));
    }

    @Test
    void aPasswordVariableThatIsNotSetAndAnUnknownStoreTypeAreConfigErrors() throws IOException {
        Map<String, String> env = storeEnvironment(TestPostgres.freshSchema("nopw"));
        env.remove(TestPostgres.PASSWORD_VARIABLE);
        assertThatThrownBy(() -> host("nopw", env)).isInstanceOf(StoreConfigurationException.class)
                .satisfies(e -> assertThat(((StoreConfigurationException) e).errorCode()).isEqualTo(StandardErrorCode.INVALID_CONFIG.toErrorCode()))
                .hasMessage("store.passwordEnv names SF_PG_PASSWORD, which is not set (or blank) in the environment.");
        Map<String, String> unknown = storeEnvironment("x");
        unknown.put("FACTORY_STORE_TYPE", "cassandra");
        assertThatThrownBy(() -> host("unknown", unknown)).isInstanceOf(FactoryConfigurationException.class)
                .hasMessage("Unknown session store type 'cassandra'; available: [postgres, sqlite].");
        assertThat(tmp.resolve("host-unknown/sessions.db")).as("nothing was created for the bad config").doesNotExist();
    }

    private static String stackText(Throwable e) {
        StringBuilder text = new StringBuilder();
        for (Throwable t = e; t != null; t = t.getCause()) {
            text.append(t).append('\n');
        }
        return text.toString();
    }
}
