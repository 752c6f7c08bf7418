package io.sandboxfactory.store.postgres.fleet;

import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.store.api.SessionStoreException;
import io.sandboxfactory.core.testing.RecordingListener;
import io.sandboxfactory.store.postgres.testing.TestPostgres;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Issue 18, point 5: the database restarted mid-run. The test runs a PostgreSQL cluster of its own
 * (scripts/postgres-up.sh on a free port, in a directory of its own, as the postgres user when run
 * as root), so stopping it disturbs no other test. While it is down, opens fail with the store's
 * one sentence, an open whose setup was running when it went down fails without recording anything
 * or writing its marker, and once it is back every open succeeds and completes what was cut short.
 */
class DatabaseRestartIT {

    private static final Duration CONNECT = Duration.ofSeconds(2);
    private static int port;
    private static Path cluster;

    @TempDir
    Path tmp;
    FleetRig rig;

    @BeforeAll
    static void ownCluster() throws Exception {
        try (ServerSocket free = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = free.getLocalPort();
        }
        cluster = Path.of("/var/tmp/sandbox-factory-postgres-restart-" + UUID.randomUUID().toString().substring(0, 8));
        String out = server("up");
        if (out != null) {
            TestPostgres.unavailable("Could not start a PostgreSQL cluster of its own with scripts/postgres-up.sh on port " + port
                    + " (" + out.strip().replace('\n', ' ') + ")", null);
        }
    }

    @AfterAll
    static void dropCluster() throws Exception {
        if (cluster != null && Files.exists(cluster)) {
            server("stop");
            try (Stream<Path> files = Files.walk(cluster)) {
                for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    @AfterEach
    void cleanup() throws Exception {
        if (rig != null) {
            rig.close();
        }
        // The next test starts with a server that answers, whatever this one left.
        assertThat(server("up")).isNull();
    }

    /** Runs scripts/postgres-up.sh {@code command} on this test's cluster; null on success, else its output. */
    private static String server(String command) throws IOException, InterruptedException {
        Path script = Path.of("").toAbsolutePath().getParent().resolve("scripts/postgres-up.sh");
        ProcessBuilder builder = new ProcessBuilder("bash", script.toString(), command).redirectErrorStream(true);
        builder.environment().put("SF_PG_PORT", Integer.toString(port));
        builder.environment().put("SF_PG_DIR", cluster.toString());
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(3, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            return "postgres-up.sh " + command + " hung: " + out;
        }
        return process.exitValue() == 0 ? null : "exit " + process.exitValue() + ": " + out;
    }

    private static void assertUnreachableSentence(Throwable failure) {
        SessionStoreException store = cause(failure, SessionStoreException.class);
        String message = store.getMessage();
        assertThat(message).matches("Session store postgres " + Pattern.quote(TestPostgres.url(port)) + " \\(schema \\w+\\) is unreachable"
                + " \\([^\\n]*\\); sessions cannot be opened, retired or looked up until it answers again\\.");
        assertThat(message).as("one sentence").doesNotContain(". ");
        assertThat(message).doesNotContain(TestPostgres.password());
    }

    private static <T extends Throwable> T cause(Throwable failure, Class<T> type) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return type.cast(t);
            }
        }
        throw new AssertionError("no " + type.getSimpleName() + " in " + failure, failure);
    }

    @Test
    void whileTheDatabaseIsDownOpensFailWithOneSentenceAndNothingIsHalfWrittenAndAfterItIsBackTheyComplete() throws Exception {
        rig = new FleetRig(tmp, List.of("replica"));
        String schema = TestPostgres.freshSchema("restart");
        Map<String, String> store = TestPostgres.storeEnvironment(TestPostgres.url(port), schema, Duration.ofSeconds(3), CONNECT);
        RecordingListener listener = new RecordingListener();
        try (SandboxFactory factory = rig.factory("replica", store, listener)) {
            factory.openSession(rig.spec("before"));

            // An open whose setup runs when the server goes away.
            rig.block("replica");
            CompletableFuture<?> midway = CompletableFuture.runAsync(() -> factory.openSession(rig.spec("midway")));
            long setupShell = rig.awaitParked("replica", null);
            assertThat(server("stop")).isNull();
            rig.unblock("replica");
            FleetRig.awaitGone(setupShell);
            assertThatThrownBy(midway::join).isInstanceOf(CompletionException.class)
                    .satisfies(DatabaseRestartIT::assertUnreachableSentence);
            assertThat(rig.marker("midway")).as("no marker written once the store refused the write").doesNotExist();

            // An open while it is down: the same sentence, and no sandbox made for it.
            assertThatThrownBy(() -> factory.openSession(rig.spec("during"))).satisfies(DatabaseRestartIT::assertUnreachableSentence);
            assertThat(rig.sessionDirectories()).containsExactly("before", "midway");

            assertThat(server("up")).isNull();
            assertThat(factory.sessionStore().find("during")).as("the open while it was down registered nothing").isEmpty();
            assertThat(factory.sessionStore().find("midway").orElseThrow().materializedAt())
                    .as("the start cut short recorded nothing").isEmpty();

            listener.clear();
            factory.openSession(rig.spec("midway"));
            assertThat(listener.phases()).as("the setup whose marker was never written runs again").contains(SessionPhase.SETUP);
            factory.openSession(rig.spec("during"));
            listener.clear();
            factory.openSession(rig.spec("before"));
            assertThat(listener.phases()).as("a session opened before the restart is still set up").doesNotContain(SessionPhase.SETUP);

            for (String session : List.of("before", "midway", "during")) {
                assertThat(factory.sessionStore().find(session).orElseThrow().materializedAt()).as(session).isPresent();
                assertThat(rig.marker(session)).as(session).exists();
            }
            assertThat(rig.sessionDirectories()).containsExactly("before", "during", "midway");
            assertThat(rig.setupLog()).containsExactly("start replica before", "done replica before",
                    "start replica midway", "done replica midway", "start replica midway", "done replica midway",
                    "start replica during", "done replica during");
        }
    }
}
