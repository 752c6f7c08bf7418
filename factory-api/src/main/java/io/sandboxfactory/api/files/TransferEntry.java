package io.sandboxfactory.api.files;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import java.util.Objects;

/**
 * One entry of a file tree on its way into or out of a sandbox ({@link FileTransferSandbox}).
 *
 * <p>Guarantees: {@link #path()} is relative and {@code /}-separated, with no empty, {@code .} or
 * {@code ..} component and no NUL, so joining it under a directory never leaves that directory
 * lexically; a {@link Type#FILE} has a size of at least 0, other types have size 0; only a {@link
 * Type#SYMLINK} has a {@link #linkTarget()} (which may point anywhere: it is data, never followed
 * by the transfer).
 *
 * @param path where the entry goes, relative to the transfer's directory
 * @param type what the entry is
 * @param size bytes of a file's content
 * @param mode permission bits ({@code 0} to {@code 07777})
 * @param linkTarget the target of a symbolic link, else null
 * @since 0.1.0
 */
public record TransferEntry(String path, Type type, long size, int mode, String linkTarget) {

    /** What an entry is. */
    public enum Type { FILE, DIRECTORY, SYMLINK }

    public TransferEntry {
        Objects.requireNonNull(type, "type");
        requireRelative(path);
        if (size < 0 || (type != Type.FILE && size != 0)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Transfer entry '" + path + "' has size " + size
                    + "; a file's size must be at least 0 and other entries have size 0.");
        }
        if (mode < 0 || mode > 07777) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Transfer entry '" + path + "' has mode " + Integer.toOctalString(mode)
                    + "; it must be permission bits between 0 and 7777 (octal).");
        }
        if ((type == Type.SYMLINK) != (linkTarget != null)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Transfer entry '" + path + "' is a " + type
                    + (linkTarget == null ? " without a link target" : " with a link target") + "; only symbolic links have one.");
        }
        if (linkTarget != null && (linkTarget.isEmpty() || linkTarget.indexOf('\0') >= 0)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Symbolic link '" + path + "' has an empty target or one holding NUL.");
        }
    }

    public static TransferEntry file(String path, long size, int mode) {
        return new TransferEntry(path, Type.FILE, size, mode, null);
    }

    public static TransferEntry directory(String path, int mode) {
        return new TransferEntry(path, Type.DIRECTORY, 0, mode, null);
    }

    public static TransferEntry symlink(String path, String target) {
        return new TransferEntry(path, Type.SYMLINK, 0, 0777, target);
    }

    /** The last component of {@link #path()}. */
    public String name() {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** This entry moved to {@code newPath}, everything else kept. */
    public TransferEntry withPath(String newPath) {
        return new TransferEntry(newPath, type, size, mode, linkTarget);
    }

    private static void requireRelative(String path) {
        Objects.requireNonNull(path, "path");
        if (path.isEmpty() || path.startsWith("/") || path.endsWith("/") || path.indexOf('\0') >= 0) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Transfer entry path '" + path.replace("\0", "\\0")
                    + "' is invalid; it must be a non-empty relative path without a leading or trailing '/' or NUL.");
        }
        for (String component : path.split("/", -1)) {
            if (component.isEmpty() || component.equals(".") || component.equals("..")) {
                throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Transfer entry path '" + path
                        + "' is invalid; it must not hold empty, '.' or '..' components.");
            }
        }
    }
}
