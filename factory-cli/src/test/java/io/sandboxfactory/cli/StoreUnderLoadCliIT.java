package io.sandboxfactory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The PostgreSQL store under load (issue 44, point 7): 16 commands at once (each a second long, so
 * they overlap) through one factory daemon, whose pool all of them share, while busy threads load
 * the host's CPUs ten times over, with the store's default pool size and timeouts. Every command runs and says nothing of a busy or
 * unreachable store. The real jar, the daemon, the shared test server (scripts/postgres-up.sh).
 */
class StoreUnderLoadCliIT {

    private static final int SERVER_PORT = Integer.parseInt(System.getenv().getOrDefault("SF_PG_PORT", "55432"));
    private static final int COMMANDS = 16;

    @TempDir
    Path temp;

    Path state;
    CliProcess cli;

    @BeforeEach
    void setUp() {
        requireServer();
        state = temp.resolve("state");
        cli = new CliProcess(state).withDaemon().in(temp)
                .env("FACTORY_STORE_TYPE", "postgres")
                .env("FACTORY_STORE_URL", "jdbc:postgresql://127.0.0.1:" + SERVER_PORT + "/"
                        + System.getenv().getOrDefault("SF_PG_DATABASE", "sandbox_factory"))
                .env("FACTORY_STORE_USER", System.getenv().getOrDefault("SF_PG_USER", "sandbox_factory"))
                .env("FACTORY_STORE_PASSWORD_ENV", "SF_PG_PASSWORD")
                .env("SF_PG_PASSWORD", System.getenv().getOrDefault("SF_PG_PASSWORD", "sandbox-factory-test"))
                .env("FACTORY_STORE_SCHEMA", "load_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
    }

    @AfterEach
    void tearDown() throws Exception {
        new Daemons(state).stop();
    }

    private static void requireServer() {
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

    @Test
    void sixteenCommandsAtOnceThroughOneDaemonUnderLoadAllRun() throws Exception {
        Path bare = GitRepos.bareWithMain(temp, "app");
        CliProcess.Result open = cli.run("open", "s1", "--repo", bare.toString(), "--branch", "work");
        assertThat(open.exitCode()).as(open.toString()).isZero();
        Daemons daemons = new Daemons(state);
        assertThat(Daemons.awaitCondition(() -> daemons.sockets().stream().anyMatch(Daemons::listening))).as("the daemon listens").isTrue();

        AtomicBoolean loading = new AtomicBoolean(true);
        List<Thread> load = new ArrayList<>();
        for (int i = 0; i < 10 * Runtime.getRuntime().availableProcessors(); i++) {
            Thread spinner = new Thread(() -> {
                long n = 0;
                while (loading.get()) {
                    n += Long.numberOfTrailingZeros(n + 1);
                }
            }, "load-" + i);
            spinner.setDaemon(true);
            spinner.start();
            load.add(spinner);
        }
        List<CliProcess.Result> results = new ArrayList<>();
        ExecutorService clients = Executors.newFixedThreadPool(COMMANDS);
        try {
            List<CompletableFuture<CliProcess.Result>> running = new ArrayList<>();
            for (int i = 0; i < COMMANDS; i++) {
                int n = i;
                running.add(CompletableFuture.supplyAsync(() -> cli.run("exec", "s1", "--", "sh", "-c", "sleep 1; echo $((" + n + " * " + n + "))"), clients));
            }
            running.forEach(command -> results.add(command.join()));
        } finally {
            loading.set(false);
            clients.shutdown();
            for (Thread spinner : load) {
                spinner.join();
            }
        }

        for (int i = 0; i < COMMANDS; i++) {
            CliProcess.Result result = results.get(i);
            assertThat(result.exitCode()).as(result.toString()).isZero();
            assertThat(result.stdout()).as(result.toString()).isEqualTo((i * i) + "\n");
            assertThat(result.stderr()).as(result.toString()).doesNotContainIgnoringCase("busy").doesNotContainIgnoringCase("unreachable");
        }
        JsonNode journal = new ObjectMapper().readTree(cli.run("--json", "log", "s1", "--entries", "100").stdout());
        List<String> logged = new ArrayList<>();
        journal.get("entries").forEach(entry -> logged.add(entry.get("command").asText()));
        for (int i = 0; i < COMMANDS; i++) {
            String wanted = "echo $((" + i + " * " + i + "))";
            assertThat(logged).as("the journal holds every command").anyMatch(command -> command.contains(wanted));
        }
    }
}
