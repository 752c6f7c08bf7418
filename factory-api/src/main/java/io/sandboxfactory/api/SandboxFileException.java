package io.sandboxfactory.api;

/**
 * A file operation in a sandbox failed because of the path it was given: the file is missing, is a
 * directory where a file was expected (or the other way round), or the directory is not empty.
 * {@link #path()} is the path as the caller gave it; {@link #code()} says which rule was broken.
 *
 * @since 0.1.0
 */
public class SandboxFileException extends SandboxException {
    private static final long serialVersionUID = 1L;

    /** Nothing exists at the path. */
    public static final String NOT_FOUND = "FILE_NOT_FOUND";
    /** A directory was expected but something else is there. */
    public static final String NOT_A_DIRECTORY = "NOT_A_DIRECTORY";
    /** A file was expected but a directory is there. */
    public static final String IS_A_DIRECTORY = "IS_A_DIRECTORY";
    /** A regular file was expected but a device, socket or FIFO is there. */
    public static final String NOT_A_REGULAR_FILE = "NOT_A_REGULAR_FILE";
    /** A non-recursive delete met a directory that has entries. */
    public static final String DIRECTORY_NOT_EMPTY = "DIRECTORY_NOT_EMPTY";
    /** The path changed under the operation (for example a parent was replaced while a file was written). */
    public static final String CHANGED = "FILE_CHANGED";
    /** The operation failed in the sandbox for another reason; the message carries the sandbox's words. */
    public static final String FAILED = "FILE_OPERATION_FAILED";

    private final String path;

    public SandboxFileException(String code, String path, String message) {
        this(code, path, message, null);
    }

    public SandboxFileException(String code, String path, String message, Throwable cause) {
        super(code, message, cause);
        this.path = path;
    }

    /** The path the failed operation was given. */
    public String path() {
        return path;
    }
}
