package io.sandboxfactory.api.files;

import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * A path given to a confined file operation leaves the root it is confined to: it is absolute,
 * holds a {@code ..} component, or resolves (through symbolic links, inside the sandbox) to a place
 * outside the root. Nothing was read or written. Code {@code PATH_OUTSIDE_ROOT}.
 *
 * @since 0.1.0
 */
public class PathOutsideRootException extends SandboxFileException {
    private static final long serialVersionUID = 1L;

    public static final String CODE = StandardErrorCode.PATH_OUTSIDE_ROOT.name();

    private final String root;

    /**
     * @param path the path as the caller gave it
     * @param root the root the operation is confined to
     * @param why what makes it leave the root, e.g. {@code "it is absolute"} or {@code "it resolves to /etc/passwd"}
     */
    public PathOutsideRootException(String path, String root, String why) {
        super(StandardErrorCode.PATH_OUTSIDE_ROOT, path, "Path '" + path + "' is outside the root " + root + ": " + why
                + "; paths must be relative to the root and stay inside it.");
        this.root = root;
    }

    /** The root the operation is confined to. */
    public String root() {
        return root;
    }
}
