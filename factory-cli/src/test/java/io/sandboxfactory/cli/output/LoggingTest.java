package io.sandboxfactory.cli.output;

import io.sandboxfactory.core.session.Redaction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.lang.reflect.Method;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/** What the CLI's stderr shows of the real sqlite-jdbc's log. */
class LoggingTest {

    private static final String TMPDIR = "org.sqlite.tmpdir";

    @TempDir
    Path temp;

    private String savedTmpdir;
    private List<Handler> savedHandlers;
    private Level savedLevel;

    @BeforeEach
    void save() {
        savedTmpdir = System.getProperty(TMPDIR);
        savedHandlers = List.of(Logger.getLogger("").getHandlers());
        savedLevel = Logger.getLogger("").getLevel();
    }

    @AfterEach
    void restore() {
        if (savedTmpdir == null) {
            System.clearProperty(TMPDIR);
        } else {
            System.setProperty(TMPDIR, savedTmpdir);
        }
        Logger root = Logger.getLogger("");
        for (Handler handler : root.getHandlers()) {
            root.removeHandler(handler);
        }
        savedHandlers.forEach(root::addHandler);
        root.setLevel(savedLevel);
    }

    @Test
    void sqliteFailingToDeleteALibraryAnotherProcessLeftIsDebugNotAnError() throws Exception {
        Path tmp = temp.resolve("sqlite-tmp");
        // Another JVM's library without its lock file, which sqlite-jdbc's start-up deletes: a directory
        // with something in it cannot be deleted, as a file its exiting owner deleted first cannot.
        Files.createDirectories(tmp.resolve("sqlite-" + SQLiteJDBCLoader.getVersion() + "-left-libsqlitejdbc.so").resolve("busy"));
        System.setProperty(TMPDIR, tmp.toString());

        assertThat(stderrOfSqliteCleanup(false)).isEmpty();
        assertThat(stderrOfSqliteCleanup(true))
                .startsWith("factory: debug: Failed to delete old native lib (java.nio.file.DirectoryNotEmptyException: ")
                .endsWith("-left-libsqlitejdbc.so)" + System.lineSeparator());
    }

    @Test
    void sqliteErrorsOtherThanItsHousekeepingStayErrors() throws Exception {
        System.setProperty(TMPDIR, temp.resolve("missing").toString());

        assertThat(stderrOfSqliteCleanup(false)).isEqualTo("factory: error: Failed to open directory" + System.lineSeparator());
    }

    @Test
    void theStorePoolsAndDriversWarningsAreDebugWhileTheFactorysOwnStayWarnings() {
        for (boolean verbose : new boolean[] {false, true}) {
            ByteArrayOutputStream stderr = new ByteArrayOutputStream();
            Logging.configure(verbose, new PrintStream(stderr, true, StandardCharsets.UTF_8), Redaction.shapes());
            org.slf4j.LoggerFactory.getLogger("com.zaxxer.hikari.pool.PoolBase")
                    .warn("sandbox-factory-store - Failed to validate connection (This connection has been closed.)");
            Logger.getLogger("org.postgresql.Driver").log(Level.SEVERE, "Connection error: ");
            org.slf4j.LoggerFactory.getLogger("io.sandboxfactory.core.internal.session.CommandJournal").warn("the factory's own");
            String lines = stderr.toString(StandardCharsets.UTF_8);
            if (verbose) {
                assertThat(lines.lines()).containsExactly(
                        "factory: debug: sandbox-factory-store - Failed to validate connection (This connection has been closed.)",
                        "factory: debug: Connection error: ", "factory: warning: the factory's own");
            } else {
                assertThat(lines.lines()).containsExactly("factory: warning: the factory's own");
            }
        }
    }

    @Test
    void aLogLineNeverShowsASecretOfTheCallerOrOneOfATokensShape() {
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        String shaped = "glpat-" + "abcdefghij0123456789";
        Logging.configure(false, new PrintStream(stderr, true, StandardCharsets.UTF_8),
                Redaction.ofEnvironment(Map.of("GH_TOKEN", "caller-token-value")));
        org.slf4j.LoggerFactory.getLogger("io.sandboxfactory.core.internal.session.CommandJournal")
                .warn("fetch with caller-token-value failed; the remote said " + shaped);

        assertThat(stderr.toString(StandardCharsets.UTF_8).lines())
                .containsExactly("factory: warning: fetch with **** failed; the remote said ****");
    }

    /** Runs sqlite-jdbc's clean-up of other JVMs' native libraries, which each JVM runs before it loads its own. */
    private static String stderrOfSqliteCleanup(boolean verbose) throws Exception {
        ByteArrayOutputStream stderr = new ByteArrayOutputStream();
        Logging.configure(verbose, new PrintStream(stderr, true, StandardCharsets.UTF_8), Redaction.shapes());
        Method cleanup = SQLiteJDBCLoader.class.getDeclaredMethod("cleanup");
        cleanup.setAccessible(true);
        cleanup.invoke(null);
        return stderr.toString(StandardCharsets.UTF_8);
    }
}
