package io.sandboxfactory.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.Properties;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The real sqlite-jdbc, loading its native library from the cache this class fills. */
class SqliteNativeLibraryTest {

    @TempDir
    Path temp;

    private Properties saved;

    @BeforeEach
    void saveProperties() {
        saved = (Properties) System.getProperties().clone();
        // In-process CLI tests in the same JVM may have pointed sqlite-jdbc at their own cache.
        System.clearProperty(SqliteNativeLibrary.PATH_PROPERTY);
    }

    @AfterEach
    void restoreProperties() {
        System.setProperties(saved);
    }

    @Test
    void extractsTheLibraryOnceThenSqliteLoadsItFromTheCacheAndNotFromTheTempDirectory() throws Exception {
        Path cache = temp.resolve("cache");
        Path sqliteTemp = Files.createDirectories(temp.resolve("sqlite-tmp"));
        System.setProperty("org.sqlite.tmpdir", sqliteTemp.toString());

        Path library = SqliteNativeLibrary.useCacheUnder(cache).orElseThrow();

        assertThat(library).startsWith(cache).isRegularFile();
        String resource = LibraryLoaderUtil.getNativeLibResourcePath() + "/" + LibraryLoaderUtil.getNativeLibName();
        try (InputStream in = SQLiteJDBCLoader.class.getResourceAsStream(resource)) {
            assertThat(Files.readAllBytes(library)).isEqualTo(in.readAllBytes());
        }
        assertThat(System.getProperty(SqliteNativeLibrary.PATH_PROPERTY)).isEqualTo(library.getParent().toString());
        try (Stream<Path> leftovers = Files.list(library.getParent())) {
            assertThat(leftovers).containsExactly(library);
        }

        try (Connection connection = DriverManager.getConnection("jdbc:sqlite:" + temp.resolve("store.db"));
             ResultSet rs = connection.createStatement().executeQuery("select sqlite_version()")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isNotBlank();
        }
        try (Stream<Path> extracted = Files.list(sqliteTemp)) {
            assertThat(extracted).as("sqlite-jdbc extracted a copy instead of loading the cached one").isEmpty();
        }
    }

    @Test
    void aSecondCallReusesTheCachedFile() throws Exception {
        Path cache = temp.resolve("cache");
        Path first = SqliteNativeLibrary.useCacheUnder(cache).orElseThrow();
        long modified = Files.getLastModifiedTime(first).toMillis();
        System.clearProperty(SqliteNativeLibrary.PATH_PROPERTY);

        Path second = SqliteNativeLibrary.useCacheUnder(cache).orElseThrow();

        assertThat(second).isEqualTo(first);
        assertThat(Files.getLastModifiedTime(second).toMillis()).isEqualTo(modified);
    }

    @Test
    void aLibraryPathTheUserSetWins() {
        System.setProperty(SqliteNativeLibrary.PATH_PROPERTY, "/opt/own-sqlite");

        assertThat(SqliteNativeLibrary.useCacheUnder(temp.resolve("cache"))).isEmpty();

        assertThat(System.getProperty(SqliteNativeLibrary.PATH_PROPERTY)).isEqualTo("/opt/own-sqlite");
        assertThat(temp.resolve("cache")).doesNotExist();
    }

    @Test
    void anUnwritableCacheLeavesSqliteToItsOwnExtraction() throws Exception {
        Path notADirectory = Files.writeString(temp.resolve("file"), "x");

        assertThat(SqliteNativeLibrary.useCacheUnder(notADirectory.resolve("cache"))).isEmpty();

        assertThat(System.getProperty(SqliteNativeLibrary.PATH_PROPERTY)).isNull();
    }
}
