package io.sandboxfactory.cli;

import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Keeps sqlite-jdbc's native library extracted in a cache directory, so that a {@code factory}
 * process loads it from there instead of extracting (and checksumming) a fresh copy into the temp
 * directory on every start, which cost about a tenth of a short command's time.
 *
 * <p>Guarantees: the library lands under a directory named after the sqlite-jdbc version and the
 * JVM's {@code os.name} and {@code os.arch}, so an upgrade never loads an old library; it appears
 * there only complete (written to a temp file, then renamed); settings the user made ({@code
 * org.sqlite.lib.path}) win; any failure leaves the properties untouched, so sqlite-jdbc extracts as
 * it always does. If the cached file cannot be loaded (a {@code noexec} mount, or a state directory
 * shared between a glibc and a musl system), sqlite-jdbc logs that and falls back to its own
 * extraction by itself.
 */
final class SqliteNativeLibrary {

    static final String PATH_PROPERTY = "org.sqlite.lib.path";
    static final String NAME_PROPERTY = "org.sqlite.lib.name";

    private static final Logger LOG = Logger.getLogger(SqliteNativeLibrary.class.getName());

    private SqliteNativeLibrary() {
    }

    /**
     * Points sqlite-jdbc at the library cached under {@code cacheRoot}, extracting it there first if
     * needed. Does nothing if the user set {@code org.sqlite.lib.path} or the platform has no bundled
     * library.
     *
     * @return the cached library file, when sqlite-jdbc will now load it
     */
    static Optional<Path> useCacheUnder(Path cacheRoot) {
        if (System.getProperty(PATH_PROPERTY) != null) {
            return Optional.empty();
        }
        try {
            String name = System.getProperty(NAME_PROPERTY, LibraryLoaderUtil.getNativeLibName());
            // Keyed by what the JVM reports rather than sqlite-jdbc's own platform folder, whose
            // detection starts a process ('uname -o') each time; the folder is looked up on a miss only.
            Path dir = cacheRoot.resolve("sqlite-jdbc-" + SQLiteJDBCLoader.getVersion())
                    .resolve(safe(System.getProperty("os.name")) + "-" + safe(System.getProperty("os.arch")));
            Path library = dir.resolve(name);
            if (!Files.isRegularFile(library) && !extract(LibraryLoaderUtil.getNativeLibResourcePath() + "/" + name, dir, library)) {
                return Optional.empty();
            }
            System.setProperty(PATH_PROPERTY, dir.toString());
            System.setProperty(NAME_PROPERTY, name);
            return Optional.of(library);
        } catch (IOException | RuntimeException e) {
            LOG.log(Level.FINE, "Not caching the SQLite native library under " + cacheRoot + "; sqlite-jdbc extracts it itself", e);
            return Optional.empty();
        }
    }

    private static String safe(String value) {
        return value == null ? "unknown" : value.replaceAll("[^A-Za-z0-9._-]", "_");
    }

    private static boolean extract(String resource, Path dir, Path library) throws IOException {
        try (InputStream in = SQLiteJDBCLoader.class.getResourceAsStream(resource)) {
            if (in == null) {
                return false;
            }
            Files.createDirectories(dir);
            Path partial = Files.createTempFile(dir, library.getFileName().toString(), ".partial");
            try {
                Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
                // Another process may extract at the same moment; both copies are whole and equal.
                Files.move(partial, library, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(partial);
            }
            return true;
        }
    }
}
