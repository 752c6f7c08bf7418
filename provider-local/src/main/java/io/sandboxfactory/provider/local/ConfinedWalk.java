package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.files.PathOutsideRootException;
import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.SandboxPaths;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One operation's walk of a session's file tree on the host: the root is opened from the session
 * directory, and every path below it one component at a time through the directory already open
 * ({@code openat} with {@code O_NOFOLLOW}, through {@link SecureDirectoryStream}), so a process
 * that swaps a directory for a link meanwhile can never lead the walk outside: the swapped
 * component fails to open as a directory, and the operation fails. A symbolic link met on the way
 * is followed only by walking its target again from the root, and only when the target lies
 * inside it. Owns every directory it opens; {@link #close} closes them all. Not thread-safe: one
 * per operation.
 */
final class ConfinedWalk implements AutoCloseable {

    private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};

    /**
     * Where a walk ended.
     *
     * @param parent the open directory holding the entry ({@code null} for the root itself)
     * @param name the entry's name in {@code parent} (for a missing path: its first missing component)
     * @param canonical the entry's canonical components below the root, the missing rest included
     * @param attributes what the entry is, not following it; {@code null} when it is missing
     * @param depth the index of {@code name} in {@code canonical}: less than its last when a parent is missing
     */
    record Position(SecureDirectoryStream<Path> parent, String name, List<String> canonical, PosixFileAttributes attributes, int depth) {

        /** Whether something on the way to the entry, not only the entry, is missing (or not a directory). */
        boolean parentMissing() {
            return attributes == null && depth < canonical.size() - 1;
        }

        boolean missing() {
            return attributes == null;
        }

        boolean directory() {
            return attributes != null && attributes.isDirectory();
        }
    }

    private final String shownRoot;
    private Path canonicalRoot;
    private final List<SecureDirectoryStream<Path>> opened = new ArrayList<>();
    private SecureDirectoryStream<Path> root;

    private ConfinedWalk(String shownRoot, Path canonicalRoot) {
        this.shownRoot = shownRoot;
        this.canonicalRoot = canonicalRoot;
    }

    /**
     * Opens {@code root}, which must lie under {@code sessionDirectory}: the session directory is
     * opened through its parent (the provider's, not the session's), every component below it
     * without following links.
     */
    static ConfinedWalk open(Path sessionDirectory, String root) {
        Path sessionReal;
        try {
            sessionReal = sessionDirectory.toRealPath();
        } catch (IOException e) {
            throw new SandboxFileException(StandardErrorCode.FILE_NOT_FOUND, root, "Root " + root + " is not available: the session directory "
                    + sessionDirectory + " cannot be resolved (" + e.getMessage() + ").", e);
        }
        Path given = Path.of(root).normalize();
        Path below;
        if (given.startsWith(sessionDirectory)) {
            below = sessionDirectory.relativize(given);
        } else if (given.startsWith(sessionReal)) {
            below = sessionReal.relativize(given);
        } else {
            throw new PathOutsideRootException(root, sessionDirectory.toString(), "the root must lie in the session directory");
        }
        ConfinedWalk walk = new ConfinedWalk(root, sessionReal);
        try {
            SecureDirectoryStream<Path> provider = walk.track(secure(Files.newDirectoryStream(sessionReal.getParent()), root));
            walk.root = walk.openDirectory(provider, sessionReal.getFileName().toString(), root);
            // The root may itself be reached through links, as long as they stay in the session directory.
            Position at = walk.locate(below.toString(), true);
            if (!at.directory()) {
                throw new SandboxFileException(StandardErrorCode.FILE_NOT_FOUND, root, "Root " + root + " is not a directory in the session directory "
                        + sessionDirectory + ".");
            }
            walk.root = walk.enter(at, root);
            walk.canonicalRoot = Path.of(walk.absolute(at.canonical()));
            return walk;
        } catch (IOException e) {
            walk.close();
            throw new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, root, "Cannot open the root " + root + ": " + e.getMessage() + ".", e);
        } catch (RuntimeException e) {
            walk.close();
            throw e;
        }
    }

    private static SecureDirectoryStream<Path> secure(DirectoryStream<Path> stream, String root) throws IOException {
        if (stream instanceof SecureDirectoryStream<Path> secure) {
            return secure;
        }
        stream.close();
        throw new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, root, "Cannot use the files of " + root
                + ": this platform has no directory-relative file operations (openat), which the local provider's file tools need.");
    }

    /** The root's canonical path on the host. */
    Path canonicalRoot() {
        return canonicalRoot;
    }

    /** The absolute canonical path of components below the root. */
    String absolute(List<String> components) {
        Path path = canonicalRoot;
        for (String component : components) {
            path = path.resolve(component);
        }
        return path.toString();
    }

    /** The open root directory. */
    SecureDirectoryStream<Path> root() {
        return root;
    }

    /**
     * Walks {@code path} (relative, normalized) from the root, following symbolic links inside the
     * root (the last component's too when {@code followLast}); a link leading outside is refused.
     */
    Position locate(String path, boolean followLast) {
        return locate(path, path, followLast);
    }

    /** {@link #locate(String, boolean)}, naming {@code shown} (the path the caller was given) in failures. */
    Position locate(String walked, String path, boolean followLast) {
        Deque<String> todo = new ArrayDeque<>(components(walked));
        List<String> current = new ArrayList<>();
        SecureDirectoryStream<Path> directory = root;
        int links = 0;
        if (todo.isEmpty()) {
            return new Position(null, "", List.of(), attributes(root, null, path), -1);
        }
        while (true) {
            String component = todo.pollFirst();
            PosixFileAttributes attributes = attributes(directory, component, path);
            if (attributes == null) {
                List<String> canonical = new ArrayList<>(current);
                canonical.add(component);
                canonical.addAll(todo);
                return new Position(directory, component, canonical, null, current.size());
            }
            if (attributes.isSymbolicLink() && (followLast || !todo.isEmpty())) {
                if (++links > SandboxPaths.MAX_LINKS) {
                    throw new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, path, "Cannot resolve '" + path
                            + "': resolving it goes through more than " + SandboxPaths.MAX_LINKS + " symbolic links.");
                }
                List<String> next = insideRoot(current, readLink(current, component, attributes, path), path);
                next.addAll(todo);
                todo = new ArrayDeque<>(next);
                current = new ArrayList<>();
                directory = root;
                if (todo.isEmpty()) {
                    return new Position(null, "", List.of(), attributes(root, null, path), -1);
                }
                continue;
            }
            current.add(component);
            if (todo.isEmpty()) {
                return new Position(directory, component, current, attributes, current.size() - 1);
            }
            if (!attributes.isDirectory()) {
                // Like the kernel: nothing exists below a non-directory; the caller reports it.
                List<String> canonical = new ArrayList<>(current);
                canonical.addAll(todo);
                return new Position(directory, component, canonical, null, current.size() - 1);
            }
            directory = openDirectory(directory, component, path);
        }
    }

    /**
     * Walks the canonical {@code components} from {@code start} into the directory they name,
     * following nothing: a link on the way is refused as leading outside, a swap meanwhile fails.
     */
    SecureDirectoryStream<Path> descend(SecureDirectoryStream<Path> start, List<String> components, String path) {
        SecureDirectoryStream<Path> current = start;
        for (String component : components) {
            PosixFileAttributes attributes = attributes(current, component, path);
            if (attributes != null && attributes.isSymbolicLink()) {
                throw new PathOutsideRootException(path, shownRoot, "'" + component + "' on its way is a symbolic link, not a real directory"
                        + " (a symbolic link could lead outside)");
            }
            current = openDirectory(current, component, path);
        }
        return current;
    }

    /** The open directory at a position that is one. */
    SecureDirectoryStream<Path> enter(Position position, String path) {
        return position.parent() == null ? root : openDirectory(position.parent(), position.name(), path);
    }

    /**
     * Opens directory {@code name} of {@code parent} without following a link: a link or anything
     * but a directory there (a swap since it was looked at) fails with {@code FILE_CHANGED}.
     */
    SecureDirectoryStream<Path> openDirectory(SecureDirectoryStream<Path> parent, String name, String path) {
        try {
            return track(parent.newDirectoryStream(Path.of(name), NOFOLLOW));
        } catch (NoSuchFileException e) {
            throw changed(path, name, "it vanished");
        } catch (NotDirectoryException e) {
            throw changed(path, name, "it is no longer a directory");
        } catch (FileSystemException e) {
            // ELOOP: a symbolic link is there now; anything else: still not a directory to enter.
            throw changed(path, name, "it is no longer a real directory (" + Objects.requireNonNullElse(e.getReason(), e.getMessage()) + ")");
        } catch (IOException e) {
            throw new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, path, "Cannot open '" + name + "' of '" + path + "': " + e.getMessage() + ".", e);
        }
    }

    private SecureDirectoryStream<Path> track(SecureDirectoryStream<Path> stream) {
        opened.add(stream);
        return stream;
    }

    /** What {@code name} in {@code directory} is, not following it ({@code name} null: the directory itself); null when missing. */
    static PosixFileAttributes attributes(SecureDirectoryStream<Path> directory, String name, String path) {
        PosixFileAttributeView view = name == null ? directory.getFileAttributeView(PosixFileAttributeView.class)
                : directory.getFileAttributeView(Path.of(name), PosixFileAttributeView.class, NOFOLLOW);
        try {
            return view.readAttributes();
        } catch (NoSuchFileException e) {
            return null;
        } catch (IOException e) {
            throw new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, path, "Cannot look at '" + path + "': " + e.getMessage() + ".", e);
        }
    }

    /**
     * The target of the link at {@code components/name}. There is no {@code readlinkat} in
     * java.nio, so it is read by path between two checks that the path still names the very link
     * the walk saw (same file key): the text can only steer a walk that starts again from the root.
     */
    String readLink(List<String> components, String name, BasicFileAttributes seen, String path) {
        List<String> at = new ArrayList<>(components);
        at.add(name);
        Path link = Path.of(absolute(at));
        try {
            requireSame(link, seen, path, name);
            String target = Files.readSymbolicLink(link).toString();
            requireSame(link, seen, path, name);
            return target;
        } catch (NoSuchFileException e) {
            throw changed(path, name, "it vanished");
        } catch (IOException e) {
            throw new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, path, "Cannot read the symbolic link '" + name + "' of '" + path
                    + "': " + e.getMessage() + ".", e);
        }
    }

    private void requireSame(Path link, BasicFileAttributes seen, String path, String name) throws IOException {
        BasicFileAttributes now = Files.readAttributes(link, BasicFileAttributes.class, NOFOLLOW);
        if (!now.isSymbolicLink() || !Objects.equals(now.fileKey(), seen.fileKey())) {
            throw changed(path, name, "a different entry is there now");
        }
    }

    /** The components below the root that link {@code target}, met in directory {@code current}, leads to; refused when outside. */
    private List<String> insideRoot(List<String> current, String target, String path) {
        List<String> next;
        List<String> parts;
        if (target.startsWith("/")) {
            Path absolute = Path.of(target).normalize();
            if (!absolute.startsWith(canonicalRoot)) {
                throw outside(path, target);
            }
            next = new ArrayList<>();
            parts = components(canonicalRoot.relativize(absolute).toString());
        } else {
            next = new ArrayList<>(current);
            parts = new ArrayList<>();
            for (String part : target.split("/")) {
                if (!part.isEmpty() && !part.equals(".")) {
                    parts.add(part);
                }
            }
        }
        for (String part : parts) {
            if (part.equals("..")) {
                if (next.isEmpty()) {
                    throw outside(path, target);
                }
                next.remove(next.size() - 1);
            } else {
                next.add(part);
            }
        }
        return next;
    }

    private PathOutsideRootException outside(String path, String target) {
        return new PathOutsideRootException(path, shownRoot, "it resolves to " + target + " through a symbolic link");
    }

    /** The components of a normalized relative path; {@code ..} is refused (the caller normalizes). */
    List<String> components(String path) {
        List<String> components = new ArrayList<>();
        for (String component : path.split("/")) {
            if (component.equals("..")) {
                throw new PathOutsideRootException(path, shownRoot, "it holds a '..' component");
            }
            if (!component.isEmpty() && !component.equals(".")) {
                components.add(component);
            }
        }
        return components;
    }

    /** The canonical components of an absolute canonical path under the root, for the transfer methods. */
    Optional<List<String>> below(String absolute) {
        Path path = Path.of(absolute).normalize();
        if (!path.startsWith(canonicalRoot)) {
            return Optional.empty();
        }
        return Optional.of(components(canonicalRoot.relativize(path).toString()));
    }

    static SandboxFileException changed(String path, String name, String why) {
        return new SandboxFileException(StandardErrorCode.FILE_CHANGED, path, "Cannot use '" + path + "': its component '" + name
                + "' changed during the operation (" + why + "); nothing outside the root was touched.");
    }

    @Override
    public void close() {
        for (SecureDirectoryStream<Path> stream : opened) {
            try {
                stream.close();
            } catch (IOException ignored) {
                // Closing a directory descriptor cannot lose data.
            }
        }
        opened.clear();
    }
}
