package io.sandboxfactory.core.files;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.files.PathOutsideRootException;
import io.sandboxfactory.api.error.StandardErrorCode;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The root a filesystem view is confined to, and the lexical half of confinement: a path given
 * to the view must be relative, without {@code ..} components or NUL. What passes is joined under
 * the root; the other half (symbolic links) is checked inside the sandbox.
 */
final class SandboxRoot {

    private final String path;

    SandboxRoot(String path) {
        Objects.requireNonNull(path, "root");
        if (!path.startsWith("/") || path.indexOf('\0') >= 0) {
            throw new InvalidInputException(StandardErrorCode.INVALID_PATH, "Root '" + path.replace("\0", "\\0")
                    + "' is invalid; it must be an absolute path inside the sandbox without NUL.");
        }
        String trimmed = path;
        while (trimmed.length() > 1 && trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        this.path = trimmed;
    }

    /** The root as an absolute path inside the sandbox, without a trailing {@code /} (unless it is {@code /}). */
    String path() {
        return path;
    }

    /**
     * {@code relative} in normal form: components joined with {@code /}, empty and {@code .}
     * components dropped; {@code ""} is the root itself. Refuses an absolute path or one with a
     * {@code ..} component with {@link PathOutsideRootException}, and NUL with {@link IllegalArgumentException}.
     */
    String normalize(String relative) {
        return normalize(relative, path);
    }

    /** {@link #normalize(String)} for a root known only by its description, e.g. before a session's root is. */
    static String normalize(String relative, String root) {
        Objects.requireNonNull(relative, "path");
        if (relative.indexOf('\0') >= 0) {
            throw new InvalidInputException(StandardErrorCode.INVALID_PATH, "Path '" + relative.replace("\0", "\\0") + "' is invalid; it must not contain NUL.");
        }
        if (relative.startsWith("/")) {
            throw new PathOutsideRootException(relative, root, "it is absolute");
        }
        List<String> parts = new ArrayList<>();
        for (String component : relative.split("/")) {
            if (component.equals("..")) {
                throw new PathOutsideRootException(relative, root, "it holds a '..' component");
            }
            if (!component.isEmpty() && !component.equals(".")) {
                parts.add(component);
            }
        }
        return String.join("/", parts);
    }

    /** The absolute path of a normalized relative path. */
    String absolute(String normalized) {
        if (normalized.isEmpty()) {
            return path;
        }
        return path.equals("/") ? "/" + normalized : path + "/" + normalized;
    }

    /** The normalized parent of a normalized, non-empty relative path ({@code ""} for a top-level entry). */
    static String parent(String normalized) {
        int slash = normalized.lastIndexOf('/');
        return slash < 0 ? "" : normalized.substring(0, slash);
    }

    /** The last component of a normalized relative path. */
    static String name(String normalized) {
        return normalized.substring(normalized.lastIndexOf('/') + 1);
    }

    /** {@code absolute} relative to {@code canonicalRoot}, for messages and results; unchanged when it is not under it. */
    static String relativize(String canonicalRoot, String absolute) {
        if (absolute.equals(canonicalRoot)) {
            return "";
        }
        String prefix = canonicalRoot.equals("/") ? "/" : canonicalRoot + "/";
        return absolute.startsWith(prefix) ? absolute.substring(prefix.length()) : absolute;
    }

    @Override
    public String toString() {
        return path;
    }
}
