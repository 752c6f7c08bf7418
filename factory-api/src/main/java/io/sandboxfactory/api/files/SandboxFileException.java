package io.sandboxfactory.api.files;

import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * A file operation in a sandbox failed because of the path it was given: the file is missing, is a
 * directory where a file was expected (or the other way round), or the directory is not empty.
 * {@link #path()} is the path as the caller gave it; {@link #errorCode()} says which rule was broken.
 * The string constants below are the codes' names, kept for providers that compare strings.
 *
 * @since 0.1.0
 */
public class SandboxFileException extends SandboxException {
    private static final long serialVersionUID = 1L;

    /** Nothing exists at the path. */
    public static final String NOT_FOUND = StandardErrorCode.FILE_NOT_FOUND.name();
    /** A directory was expected but something else is there. */
    public static final String NOT_A_DIRECTORY = StandardErrorCode.NOT_A_DIRECTORY.name();
    /** A file was expected but a directory is there. */
    public static final String IS_A_DIRECTORY = StandardErrorCode.IS_A_DIRECTORY.name();
    /** A regular file was expected but a device, socket or FIFO is there. */
    public static final String NOT_A_REGULAR_FILE = StandardErrorCode.NOT_A_REGULAR_FILE.name();
    /** A non-recursive delete met a directory that has entries. */
    public static final String DIRECTORY_NOT_EMPTY = StandardErrorCode.DIRECTORY_NOT_EMPTY.name();
    /** The path changed under the operation (for example a parent was replaced while a file was written). */
    public static final String CHANGED = StandardErrorCode.FILE_CHANGED.name();
    /** The operation failed in the sandbox for another reason; the message carries the sandbox's words. */
    public static final String FAILED = StandardErrorCode.FILE_OPERATION_FAILED.name();

    private final String path;

    /** @since 0.1.0 */
    public SandboxFileException(ErrorCodeSupplier errorCode, String path, String message) {
        this(errorCode, path, message, null);
    }

    /** @since 0.1.0 */
    public SandboxFileException(ErrorCodeSupplier errorCode, String path, String message, Throwable cause) {
        super(errorCode, message, cause);
        this.path = path;
    }

    /** The path the failed operation was given. */
    public String path() {
        return path;
    }
}
