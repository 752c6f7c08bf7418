package io.sandboxfactory.core.files;

import io.sandboxfactory.api.files.FileTransferSandbox;

import java.io.InputStream;
import java.io.OutputStream;

/**
 * How file content moves between the host and a sandbox: over plain commands ({@link
 * GenericTransfer}) or a provider's {@link FileTransferSandbox} ({@link FastTransfer}). Paths are
 * normalized relative paths; both implementations confine them inside the sandbox.
 */
interface ContentTransfer {

    /** Resolves and confines {@code path} inside the sandbox. */
    Resolved resolve(String path);

    /** Streams the regular file at {@code path} into {@code out}. */
    void read(String path, OutputStream out);

    /**
     * Replaces the file at {@code path} atomically with {@code content}, creating its parents.
     *
     * @param size the content's length, or -1 when unknown
     * @param mode octal permission bits to set, or null to keep the replaced file's
     */
    void write(String path, InputStream content, long size, String mode);

    /** Writes the entries of {@code source} under the existing directory {@code directory} (resolved from {@code path}). */
    void copyIn(Resolved directory, String path, FileTransferSandbox.Source source);

    /** Visits what is at {@code source} (resolved from {@code path}), naming the first entry {@code name}. */
    void copyOut(Resolved source, String path, String name, TreeSink sink);
}
