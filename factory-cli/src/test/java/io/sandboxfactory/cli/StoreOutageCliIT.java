package io.sandboxfactory.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The PostgreSQL session store going away under the command line, daemon off and on: the real jar
 * against the shared test server (scripts/postgres-up.sh) through a {@link StoreProxy}, whose cut is
 * the outage. The user's stderr carries the factory's own sentences only, never the pool's or the
 * driver's log lines, and a command that ran while the store went away is in its journal afterwards
 * or said that it could not be recorded.
 */
@ParameterizedClass(name = "daemon {0}")
@EnumSource(DaemonMode.class)
class StoreOutageCliIT {

    /** What HikariCP's and pgjdbc's own log lines carry. */
    private static final Pattern LIBRARY_LINE = Pattern.compile("(?i)hikari|zaxxer|org\\.postgresql|sandbox-factory-store - |PgConnection");

    @Parameter
    DaemonMode mode;

    @TempDir
    Path temp;

    Path state;
    Path shared;
    StoreProxy proxy;
    CliProcess cli;

    @BeforeEach
    void setUp() throws Exception {
        TestPostgresStore.requireServer();
        state = temp.resolve("state");
        shared = Files.createDirectories(temp.resolve("shared"));
        proxy = new StoreProxy(TestPostgresStore.SERVER_PORT);
        cli = TestPostgresStore.on(mode.cli(state).in(temp).env("FACTORY_PROVIDERS_LOCAL_VOLUMES", "[" + shared + "]"),
                proxy.port(), "outage")
                .env("FACTORY_STORE_CONNECT_TIMEOUT", "1s");
    }

    @AfterEach
    void tearDown() throws Exception {
        new Daemons(state).stop();
        if (proxy != null) {
            proxy.close();
        }
    }

    @Test
    void anOutageDuringAndBeforeACommandShowsTheFactorysSentencesOnlyAndLosesNoJournalEntry() throws Exception {
        Path bare = GitRepos.bareWithMain(temp, "app");
        CliProcess.Result open = cli.run("open", "s1", "--repo", bare.toString(), "--branch", "work");
        assertThat(open.exitCode()).as(open.toString()).isZero();
        // Warm connections in the pool (and in the daemon's, when it runs the commands).
        assertThat(cli.run("exec", "s1", "--", "true").exitCode()).isZero();

        Path started = shared.resolve("started");
        Path go = shared.resolve("go");
        CompletableFuture<CliProcess.Result> during = CompletableFuture.supplyAsync(() -> cli.run("exec", "s1", "--", "sh", "-c",
                "touch '" + started + "'; while [ ! -e '" + go + "' ]; do sleep 0.1; done; echo ran-during-the-outage"));
        assertThat(Daemons.awaitCondition(() -> Files.exists(started) || during.isDone())).isTrue();
        assertThat(during).as("the command is running").isNotDone();
        proxy.cut();
        Files.createFile(go);
        CliProcess.Result cut = during.join();

        assertThat(cut.stdout()).as(cut.toString()).contains("ran-during-the-outage");
        assertThat(cut.stderr().lines()).as("stderr of the command cut off from its store:\n" + cut)
                .noneMatch(line -> LIBRARY_LINE.matcher(line).find())
                .allMatch(line -> line.startsWith("factory: "));
        boolean reported = cut.stderr().contains("could not be recorded in the journal of session 's1'");

        CliProcess.Result down = cli.run("exec", "s1", "--", "true");
        assertThat(down.exitCode()).as(down.toString()).isEqualTo(1);
        assertThat(down.stderr().lines()).as(down.toString())
                .noneMatch(line -> LIBRARY_LINE.matcher(line).find())
                .anyMatch(line -> line.matches("factory: Session store postgres jdbc:postgresql://127\\.0\\.0\\.1:" + proxy.port()
                        + "/\\S+ \\(schema outage_\\w+\\) is unreachable \\(.*\\); sessions cannot be opened, retired or looked up until it"
                        + " answers again\\."));

        proxy.restore();
        CliProcess.Result log = cli.run("log", "s1");
        assertThat(log.exitCode()).as(log.toString()).isZero();
        assertThat(reported || log.stdout().contains("ran-during-the-outage") || log.stdout().contains("while [ ! -e"))
                .as("the command that ran during the outage is in the journal, or it said it could not be recorded:\n" + cut + "\n" + log)
                .isTrue();
    }
}
