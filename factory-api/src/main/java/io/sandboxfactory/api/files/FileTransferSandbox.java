package io.sandboxfactory.api.files;

import io.sandboxfactory.api.ExecutableSandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.support.SandboxPaths;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Optional fast file transfer a sandbox may offer besides {@link ExecutableSandbox#executeCommand}
 * (declare {@link SandboxCapability#FILE_TRANSFER}). The framework's session filesystem works over
 * plain commands with any provider; when the sandbox also implements this interface it moves file
 * content through it instead (the local provider with java.nio, the docker provider with the
 * engine's archive API), and keeps using commands for everything else.
 *
 * <p>Paths are absolute paths inside the sandbox. The caller has already resolved them (every
 * symbolic link followed) and checked that they lie under {@code root}; an implementation must not
 * widen that: it never follows a symbolic link in the last component of a path it writes, never
 * writes through a symbolic link an entry of the same transfer created, and refuses with {@link
 * PathOutsideRootException} a path it can see lies outside {@code root}. Both methods start the
 * sandbox when it is not running, as {@code executeCommand} does. Implementations are thread-safe.
 *
 * <p>{@link #resolve} lets the caller confine paths without running a command; a sandbox that
 * cannot answer cheaply leaves it empty and the caller resolves with a command instead.
 *
 * <p>Failures: a missing path is a {@link SandboxFileException} ({@link SandboxFileException#NOT_FOUND});
 * other sandbox-side failures are {@link SandboxException}s; an {@link IOException} thrown by the
 * caller's {@link Source} or {@link Sink} is rethrown wrapped in an {@link java.io.UncheckedIOException}.
 *
 * @since 0.1.0
 */
public interface FileTransferSandbox {

    /**
     * Writes the entries of {@code source}, in order, under the existing directory {@code
     * directory}. Files are written in place (not atomically) and replace an existing file or
     * symbolic link; directories merge into existing directories; an entry never replaces an
     * existing entry of the other kind (a directory by a non-directory or the other way round):
     * that fails the copy. The content of a file is exactly {@link TransferEntry#size()} bytes.
     *
     * @param root the confinement root
     * @param directory an existing directory under {@code root} (or {@code root} itself)
     */
    void copyIn(String root, String directory, Source source);

    /**
     * Visits the file, symbolic link or directory tree at {@code path}: the first entry is the one at
     * {@code path}, named by its last component; a directory's descendants follow it, named
     * {@code <name>/...}, every directory before its contents. Symbolic links are reported, not
     * followed. Content streams are only valid during the call to the sink.
     *
     * @param root the confinement root
     * @param path an existing path under {@code root}
     */
    void copyOut(String root, String path, Sink sink);

    /**
     * Resolves the absolute {@code path} as the sandbox's own kernel would: every symbolic link
     * followed (dangling ones too, at most 40), the part that does not exist appended and
     * normalized lexically. Empty when this sandbox cannot answer without running a command. Starts
     * the sandbox when it is not running. {@link SandboxPaths#resolve} does the walk over an
     * {@code lstat}-like primitive.
     */
    default Optional<Resolution> resolve(String path) {
        return Optional.empty();
    }

    /** What a resolved path names. */
    enum Kind { FILE, DIRECTORY, OTHER, MISSING }

    /**
     * Where a path leads.
     *
     * @param path absolute and canonical: no symbolic link, {@code .} or {@code ..} in it
     * @param kind what is there
     */
    record Resolution(String path, Kind kind) {
        public Resolution {
            Objects.requireNonNull(path, "path");
            Objects.requireNonNull(kind, "kind");
        }
    }

    /** The entries {@link #copyIn} writes, and their content. */
    interface Source {

        /** Every entry to write, each directory before the entries under it. */
        List<TransferEntry> entries();

        /** Opens the content of a {@link TransferEntry.Type#FILE} entry; the caller closes it. */
        InputStream open(TransferEntry file) throws IOException;
    }

    /** Receives the entries {@link #copyOut} reads. */
    @FunctionalInterface
    interface Sink {

        /**
         * Takes one entry; {@code content} holds a file's bytes (an empty stream for other types) and
         * is valid only until this method returns.
         */
        void accept(TransferEntry entry, InputStream content) throws IOException;
    }
}
