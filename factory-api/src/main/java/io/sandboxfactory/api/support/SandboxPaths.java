package io.sandboxfactory.api.support;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.error.StandardErrorCode;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

/**
 * Path resolution for {@link FileTransferSandbox#resolve}: walks an absolute path one component at
 * a time from {@code /}, asking the sandbox about each canonical prefix without following it (an
 * {@code lstat}), and follows symbolic links the way the kernel does, dangling ones included. Stops
 * at the first component that does not exist (or is not a directory while more follow) and appends
 * the rest lexically.
 *
 * @since 0.1.0
 */
public final class SandboxPaths {

    /** Linux's limit on symbolic links followed while resolving one path. */
    public static final int MAX_LINKS = 40;

    /**
     * What is at a canonical path, not following a symbolic link there.
     *
     * @param kind what the entry is; {@link FileTransferSandbox.Kind#MISSING} is not used (answer empty instead)
     * @param linkTarget the target when the entry is a symbolic link (absolute or relative to its directory), else null
     */
    public record Entry(FileTransferSandbox.Kind kind, String linkTarget) {
        public boolean isLink() {
            return linkTarget != null;
        }
    }

    /** Looks at one canonical absolute path without following it; empty when nothing is there. */
    @FunctionalInterface
    public interface Lstat {
        Optional<Entry> lstat(String canonicalPath) throws IOException;
    }

    private SandboxPaths() {
    }

    /** Resolves the absolute {@code path} with {@code lstat}. */
    public static FileTransferSandbox.Resolution resolve(String path, Lstat lstat) throws IOException {
        if (!path.startsWith("/") || path.indexOf('\0') >= 0) {
            throw new InvalidInputException(StandardErrorCode.INVALID_PATH, "Path '" + path.replace("\0", "\\0") + "' is invalid; it must be absolute and hold no NUL.");
        }
        Deque<String> todo = new ArrayDeque<>(components(path));
        List<String> current = new ArrayList<>();
        FileTransferSandbox.Kind kind = FileTransferSandbox.Kind.DIRECTORY;
        int links = 0;
        while (!todo.isEmpty()) {
            String component = todo.pollFirst();
            if (component.equals("..")) {
                if (!current.isEmpty()) {
                    current.remove(current.size() - 1);
                }
                kind = FileTransferSandbox.Kind.DIRECTORY;
                continue;
            }
            current.add(component);
            Optional<Entry> entry = lstat.lstat(join(current));
            if (entry.isEmpty()) {
                return missing(current, todo);
            }
            if (entry.get().isLink()) {
                if (++links > MAX_LINKS) {
                    throw new IOException("Resolving " + path + " goes through more than " + MAX_LINKS + " symbolic links.");
                }
                current.remove(current.size() - 1);
                String target = entry.get().linkTarget();
                if (target.startsWith("/")) {
                    current.clear();
                }
                List<String> targetComponents = components(target);
                for (int i = targetComponents.size() - 1; i >= 0; i--) {
                    todo.addFirst(targetComponents.get(i));
                }
                kind = FileTransferSandbox.Kind.DIRECTORY;
                continue;
            }
            kind = entry.get().kind();
            if (!todo.isEmpty() && kind != FileTransferSandbox.Kind.DIRECTORY) {
                return missing(current, todo);
            }
        }
        return new FileTransferSandbox.Resolution(join(current), kind);
    }

    private static FileTransferSandbox.Resolution missing(List<String> current, Deque<String> rest) {
        for (String component : rest) {
            if (component.equals("..")) {
                if (!current.isEmpty()) {
                    current.remove(current.size() - 1);
                }
            } else {
                current.add(component);
            }
        }
        return new FileTransferSandbox.Resolution(join(current), FileTransferSandbox.Kind.MISSING);
    }

    private static List<String> components(String path) {
        List<String> components = new ArrayList<>();
        for (String component : path.split("/")) {
            if (!component.isEmpty() && !component.equals(".")) {
                components.add(component);
            }
        }
        return components;
    }

    private static String join(List<String> components) {
        return components.isEmpty() ? "/" : "/" + String.join("/", components);
    }
}
