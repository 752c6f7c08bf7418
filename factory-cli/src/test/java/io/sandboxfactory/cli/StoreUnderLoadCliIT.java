package io.sandboxfactory.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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

    private static final int COMMANDS = 16;

    @TempDir
    Path temp;

    Path state;
    CliProcess cli;

    @BeforeEach
    void setUp() {
        TestPostgresStore.requireServer();
        state = temp.resolve("state");
        cli = TestPostgresStore.on(new CliProcess(state).withDaemon().in(temp), TestPostgresStore.SERVER_PORT, "load");
    }

    @AfterEach
    void tearDown() throws Exception {
        new Daemons(state).stop();
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
