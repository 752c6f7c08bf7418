package io.sandboxfactory.api.files;

import java.io.InputStream;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A {@link FileTransferSandbox} that performs every operation of the session filesystem itself,
 * for providers whose file tools run outside the sandbox's isolation (the local provider works on
 * the host). When a sandbox implements it the framework runs no file command at all: it hands over
 * the root and a relative path, and the implementation resolves the path from the root one
 * component at a time without following links, following a symbolic link only by walking its
 * target again from the root. A link that leads outside the root is a {@link
 * PathOutsideRootException}; a component that a concurrent process swaps for a link (or anything
 * else) fails the operation with a {@link SandboxFileException}, and nothing outside the root is
 * ever read, written, created, deleted or listed.
 *
 * <p>Paths: {@code root} is absolute in the sandbox; {@code path} is relative to it, already
 * normalized by the caller (no leading {@code /}, no {@code .} or {@code ..} components, {@code ""}
 * for the root itself). Failures use {@link SandboxFileException} codes as the framework's file
 * commands do: {@code FILE_NOT_FOUND}, {@code NOT_A_DIRECTORY}, {@code IS_A_DIRECTORY}, {@code
 * NOT_A_REGULAR_FILE}, {@code DIRECTORY_NOT_EMPTY}, {@code PATH_OUTSIDE_ROOT}, {@code FILE_CHANGED}
 * (a swap was seen) and {@code FILE_OPERATION_FAILED}. Thread-safe.
 *
 * @since 0.1.0
 */
public interface FileOperationsSandbox extends FileTransferSandbox {

    /** Resolves {@code path} inside {@code root}: links inside the root followed, the missing rest appended. */
    Resolution resolve(String root, String path);

    /** The entries of the directory at {@code path}, not following links among them, in no particular order. */
    List<FileStat> list(String root, String path);

    /** What is at {@code path} (links followed inside the root), named by the last component of {@code path}. */
    FileStat stat(String root, String path);

    /** Creates the directory at {@code path} and its missing parents (fine when it exists); returns its resolution. */
    Resolution mkdirs(String root, String path);

    /** Deletes the entry at {@code path} itself (a link is removed, never followed); a non-empty directory only when {@code recursive}. */
    void delete(String root, String path, boolean recursive);

    /** Renames the entry at {@code from} to {@code to}, replacing a non-directory there and creating missing parents. */
    void move(String root, String from, String to);

    /**
     * Replaces (or creates) the regular file at {@code path} atomically with the whole of {@code
     * content} (not closed), creating missing parents.
     *
     * @param mode the permission bits to set, or a negative number to keep the replaced file's (0644 for a new one)
     */
    void write(String root, String path, InputStream content, int mode);

    /** Appends the whole of {@code content} (not closed) to the regular file at {@code path}, creating it and its parents. */
    void append(String root, String path, InputStream content);

    /**
     * One entry as {@code lstat} sees it.
     *
     * @param name its last component ({@code ""} for the root)
     * @param mode the raw {@code st_mode}: file type bits and permission bits
     * @param size its size in bytes (a link: the length of its target)
     * @param modified its last modification
     */
    record FileStat(String name, int mode, long size, Instant modified) {
        public FileStat {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(modified, "modified");
        }
    }
}
