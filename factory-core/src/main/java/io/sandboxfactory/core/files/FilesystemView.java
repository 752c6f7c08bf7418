package io.sandboxfactory.core.files;

import java.io.OutputStream;
import java.util.List;

/**
 * Reading a session's files. Paths are relative to the view's root: {@code ""} (or {@code "."}) is
 * the root, {@code /} separates components, and an absolute path, a {@code ..} component or a
 * symbolic link that resolves outside the root is refused with {@link
 * io.sandboxfactory.api.files.PathOutsideRootException}. A missing path is a {@link
 * io.sandboxfactory.api.files.SandboxFileException} with code {@code FILE_NOT_FOUND}.
 */
public interface FilesystemView {

    /** The whole content of the file at {@code path}. */
    byte[] readFile(String path);

    /** The content of the file at {@code path} decoded as UTF-8 (malformed bytes become U+FFFD). */
    String readText(String path);

    /**
     * Streams the content of the file at {@code path} to {@code out} (not closed) with bounded memory
     * whatever the size. An {@link java.io.IOException} of {@code out} is rethrown as {@link
     * java.io.UncheckedIOException}.
     */
    void readFile(String path, OutputStream out);

    /** The entries of the directory at {@code path}, sorted by name; symbolic links are listed as links. */
    List<FileInfo> list(String path);

    /** What is at {@code path}, symbolic links followed. */
    FileInfo stat(String path);

    /** Whether something exists at {@code path}, symbolic links followed. */
    boolean exists(String path);

    /** {@code path} with every symbolic link resolved, relative to the root ({@code ""} for the root itself). */
    String realpath(String path);
}
