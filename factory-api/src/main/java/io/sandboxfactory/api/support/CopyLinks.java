package io.sandboxfactory.api.support;

import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.files.PathOutsideRootException;
import io.sandboxfactory.api.files.TransferEntry;

import java.util.HashSet;
import java.util.Set;

/**
 * The symbolic links one {@link FileTransferSandbox#copyIn} has written so far, and the rule that
 * goes with them: no entry of the same copy is written below one of them, since writing it would
 * follow the link, possibly out of the confinement root. Check every entry in order. Not
 * thread-safe: one instance per copy.
 *
 * @since 0.1.0
 */
public final class CopyLinks {

    private final Set<String> links = new HashSet<>();

    /**
     * Refuses {@code entry} when it lies below a symbolic link an earlier entry of this copy
     * created, and remembers it when it is a link itself.
     *
     * @throws PathOutsideRootException naming the entry and the link
     */
    public void check(TransferEntry entry) {
        String path = entry.path();
        for (int slash = path.indexOf('/'); slash >= 0; slash = path.indexOf('/', slash + 1)) {
            if (links.contains(path.substring(0, slash))) {
                throw new PathOutsideRootException(path, "the copy's directory", "it lies below the symbolic link '"
                        + path.substring(0, slash) + "' of the same copy");
            }
        }
        if (entry.type() == TransferEntry.Type.SYMLINK) {
            links.add(path);
        }
    }
}
