package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.files.FileOperationsSandbox.FileStat;
import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.files.PathOutsideRootException;
import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.files.TransferEntry;
import io.sandboxfactory.api.support.CopyLinks;
import io.sandboxfactory.api.support.SandboxPaths;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * The local provider's file tools: every read, write, list, copy and delete of session files,
 * in java.nio on the host, no process. Each operation opens the root from the session directory
 * and walks from it one component at a time through open directories without following links
 * ({@link ConfinedWalk}); entries are created, renamed and removed relative to the open parent
 * directory ({@code openat}, {@code renameat}, {@code unlinkat}), never by path. A session command
 * that swaps one of its directories for a link meanwhile fails the operation (FILE_CHANGED); it
 * never leads it outside the root.
 */
final class LocalFileTransfer {

    private static final int BUFFER = 64 * 1024;
    private static final LinkOption[] NOFOLLOW = {LinkOption.NOFOLLOW_LINKS};
    private static final Set<PosixFilePermission> DIRECTORY_MODE = Set.copyOf(PosixFilePermissions.fromString("rwxr-xr-x"));

    private final Path sessionDirectory;
    private final FileStaging staging;

    LocalFileTransfer(Path sessionDirectory) {
        this.sessionDirectory = sessionDirectory;
        this.staging = new FileStaging(sessionDirectory);
    }

    /** Resolves an absolute host path with {@code lstat}, as the host's kernel would (no confinement: that is the caller's). */
    FileTransferSandbox.Resolution resolve(String path) {
        try {
            return SandboxPaths.resolve(path, LocalFileTransfer::lstat);
        } catch (IOException e) {
            throw new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, path, "Cannot resolve " + path + ": " + e.getMessage(), e);
        }
    }

    private static Optional<SandboxPaths.Entry> lstat(String path) throws IOException {
        Path file = Path.of(path);
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class, NOFOLLOW);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        if (attributes.isSymbolicLink()) {
            return Optional.of(new SandboxPaths.Entry(FileTransferSandbox.Kind.OTHER, Files.readSymbolicLink(file).toString()));
        }
        return Optional.of(new SandboxPaths.Entry(kind(attributes), null));
    }

    // ---- operations on a root and a relative path ----------------------------------------------

    FileTransferSandbox.Resolution resolve(String root, String path) {
        try (ConfinedWalk walk = open(root)) {
            ConfinedWalk.Position at = walk.locate(path, true);
            return new FileTransferSandbox.Resolution(walk.absolute(at.canonical()),
                    at.missing() ? FileTransferSandbox.Kind.MISSING : kind(at.attributes()));
        }
    }

    List<FileStat> list(String root, String path) {
        try (ConfinedWalk walk = open(root)) {
            ConfinedWalk.Position at = walk.locate(path, true);
            requireExisting(at, path);
            if (!at.directory()) {
                throw new SandboxFileException(StandardErrorCode.NOT_A_DIRECTORY, shown(path), "Cannot list '" + shown(path) + "': it is not a directory.");
            }
            SecureDirectoryStream<Path> directory = walk.enter(at, path);
            List<FileStat> entries = new ArrayList<>();
            for (Path child : directory) {
                String name = child.getFileName().toString();
                PosixFileAttributes attributes = ConfinedWalk.attributes(directory, name, path);
                if (attributes != null) {
                    entries.add(stat(name, attributes));
                }
            }
            return entries;
        }
    }

    FileStat stat(String root, String path) {
        try (ConfinedWalk walk = open(root)) {
            ConfinedWalk.Position at = walk.locate(path, true);
            requireExisting(at, path);
            return stat(path.isEmpty() ? "" : path.substring(path.lastIndexOf('/') + 1), at.attributes());
        }
    }

    FileTransferSandbox.Resolution mkdirs(String root, String path) {
        try (ConfinedWalk walk = open(root)) {
            return new FileTransferSandbox.Resolution(walk.absolute(directory(walk, path, path).canonical()), FileTransferSandbox.Kind.DIRECTORY);
        }
    }

    /**
     * The directory at {@code path}, made with its missing parents; each is created in its open
     * parent, then walked into. Refusals name {@code shown}, the path the caller was given.
     */
    private ConfinedWalk.Position directory(ConfinedWalk walk, String path, String shown) {
        int depth = walk.components(path).size();
        for (int attempt = 0; attempt <= depth + SandboxPaths.MAX_LINKS; attempt++) {
            ConfinedWalk.Position at = walk.locate(path, shown, true);
            if (at.directory()) {
                return at;
            }
            if (!at.missing() || at.parent() == null || !isMissing(at.parent(), at.name(), path)) {
                throw new SandboxFileException(StandardErrorCode.NOT_A_DIRECTORY, shown(path), "Cannot create directory '" + shown(path)
                        + "': '" + at.name() + "' on its way is not a directory.");
            }
            staging.createDirectory(at.parent(), at.name(), DIRECTORY_MODE, shown(path));
        }
        throw ConfinedWalk.changed(shown(path), path, "it kept changing while its directories were made");
    }

    private static boolean isMissing(SecureDirectoryStream<Path> parent, String name, String path) {
        return ConfinedWalk.attributes(parent, name, path) == null;
    }

    void delete(String root, String path, boolean recursive) {
        try (ConfinedWalk walk = open(root)) {
            ConfinedWalk.Position at = walk.locate(path, false);
            requireExisting(at, path);
            if (at.parent() == null) {
                throw new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, shown(path), "Cannot delete the root " + root + ".");
            }
            try {
                if (at.directory()) {
                    if (recursive) {
                        deleteTree(walk, at.parent(), at.name(), path);
                    } else {
                        at.parent().deleteDirectory(Path.of(at.name()));
                    }
                } else {
                    at.parent().deleteFile(Path.of(at.name()));
                }
            } catch (DirectoryNotEmptyException e) {
                throw new SandboxFileException(StandardErrorCode.DIRECTORY_NOT_EMPTY, shown(path), "Cannot delete '" + shown(path)
                        + "': the directory is not empty; delete it recursively to remove its contents.", e);
            } catch (NoSuchFileException e) {
                throw ConfinedWalk.changed(shown(path), at.name(), "it vanished");
            } catch (IOException e) {
                throw failed("delete", path, e);
            }
        }
    }

    /** Deletes directory {@code name} of {@code parent} and everything in it; a link in it is removed, never followed. */
    private static void deleteTree(ConfinedWalk walk, SecureDirectoryStream<Path> parent, String name, String path) throws IOException {
        SecureDirectoryStream<Path> directory = walk.openDirectory(parent, name, path);
        List<String> children = new ArrayList<>();
        for (Path child : directory) {
            children.add(child.getFileName().toString());
        }
        for (String child : children) {
            PosixFileAttributes attributes = ConfinedWalk.attributes(directory, child, path);
            if (attributes == null) {
                continue;
            }
            if (attributes.isDirectory()) {
                deleteTree(walk, directory, child, path);
            } else {
                try {
                    directory.deleteFile(Path.of(child));
                } catch (NoSuchFileException ignored) {
                    // Gone already: that is what was asked.
                }
            }
        }
        parent.deleteDirectory(Path.of(name));
    }

    void move(String root, String from, String to) {
        try (ConfinedWalk walk = open(root)) {
            ConfinedWalk.Position source = walk.locate(from, false);
            requireExisting(source, from);
            String targetParent = parentOf(to);
            SecureDirectoryStream<Path> directory = walk.enter(directory(walk, targetParent, to), to);
            String name = to.substring(to.lastIndexOf('/') + 1);
            PosixFileAttributes there = ConfinedWalk.attributes(directory, name, to);
            if (there != null && there.isDirectory()) {
                throw new SandboxFileException(StandardErrorCode.IS_A_DIRECTORY, shown(to), "Cannot move '" + shown(from) + "' onto '" + shown(to)
                        + "': it is a directory.");
            }
            try {
                source.parent().move(Path.of(source.name()), directory, Path.of(name));
            } catch (NoSuchFileException e) {
                throw ConfinedWalk.changed(shown(from), source.name(), "it vanished");
            } catch (IOException e) {
                throw failed("move", from, e);
            }
        }
    }

    void write(String root, String path, InputStream content, int mode) {
        try (ConfinedWalk walk = open(root)) {
            ConfinedWalk.Position at = target(walk, path);
            Set<PosixFilePermission> permissions = mode >= 0 ? permissions(mode)
                    : at.missing() ? permissions(0644) : at.attributes().permissions();
            writeBeside(at.parent(), at.name(), content, -1, permissions, path);
        }
    }

    void append(String root, String path, InputStream content) {
        try (ConfinedWalk walk = open(root)) {
            ConfinedWalk.Position at = target(walk, path);
            if (!at.missing() && !at.attributes().isRegularFile()) {
                throw new SandboxFileException(StandardErrorCode.NOT_A_REGULAR_FILE, shown(path), "Cannot append to '" + shown(path)
                        + "': it is not a regular file.");
            }
            Set<OpenOption> options = Set.of(StandardOpenOption.WRITE, StandardOpenOption.APPEND, StandardOpenOption.CREATE, LinkOption.NOFOLLOW_LINKS);
            try (SeekableByteChannel channel = at.parent().newByteChannel(Path.of(at.name()), options, PosixFilePermissions.asFileAttribute(permissions(0644)));
                 OutputStream out = Channels.newOutputStream(channel)) {
                copy(content, out, -1, path);
            } catch (IOException e) {
                throw failed("append to", path, e);
            }
        }
    }

    /** Where a write of {@code path} goes: its directory exists (made when missing) and it is not a directory. */
    private ConfinedWalk.Position target(ConfinedWalk walk, String path) {
        if (path.isEmpty()) {
            throw new SandboxFileException(StandardErrorCode.IS_A_DIRECTORY, ".", "Cannot write '.': it is a directory.");
        }
        ConfinedWalk.Position at = walk.locate(path, true);
        if (at.parentMissing()) {
            String canonical = String.join("/", at.canonical());
            directory(walk, parentOf(canonical), path);
            at = walk.locate(canonical, path, true);
            if (at.parentMissing()) {
                throw ConfinedWalk.changed(shown(path), at.name(), "it vanished");
            }
        }
        if (at.directory()) {
            throw new SandboxFileException(StandardErrorCode.IS_A_DIRECTORY, shown(path), "Cannot write '" + shown(path) + "': it is a directory.");
        }
        return at;
    }

    /**
     * Writes {@code name} in {@code directory} through a new temporary file beside it ({@code
     * O_CREAT|O_EXCL|O_NOFOLLOW}), renamed over it ({@code renameat}): a link there is replaced,
     * never followed.
     */
    private static void writeBeside(SecureDirectoryStream<Path> directory, String name, InputStream content, long size,
                                    Set<PosixFilePermission> permissions, String path) {
        Path temp = Path.of(".sf-" + UUID.randomUUID() + ".part");
        Set<OpenOption> options = Set.of(StandardOpenOption.WRITE, StandardOpenOption.CREATE_NEW, LinkOption.NOFOLLOW_LINKS);
        boolean placed = false;
        try {
            try (SeekableByteChannel channel = directory.newByteChannel(temp, options, PosixFilePermissions.asFileAttribute(permissions(0600)));
                 OutputStream out = Channels.newOutputStream(channel)) {
                copy(content, out, size, path);
            }
            directory.getFileAttributeView(temp, PosixFileAttributeView.class, NOFOLLOW).setPermissions(permissions);
            directory.move(temp, directory, Path.of(name));
            placed = true;
        } catch (FileAlreadyExistsException e) {
            throw ConfinedWalk.changed(shown(path), temp.toString(), "a temporary file's name was taken");
        } catch (IOException e) {
            throw failed("write", path, e);
        } finally {
            if (!placed) {
                try {
                    directory.deleteFile(temp);
                } catch (IOException ignored) {
                    // Never made, or already gone.
                }
            }
        }
    }

    // ---- transfers of canonical absolute paths -------------------------------------------------

    void copyIn(String root, String directory, FileTransferSandbox.Source source) {
        try (ConfinedWalk walk = open(root)) {
            List<String> base = walk.below(directory).orElseThrow(() -> new PathOutsideRootException(directory, root, "it is not under the root"));
            SecureDirectoryStream<Path> start = walk.descend(walk.root(), base, directory);
            Map<String, SecureDirectoryStream<Path>> directories = new HashMap<>();
            directories.put("", start);
            CopyLinks links = new CopyLinks();
            for (TransferEntry entry : source.entries()) {
                links.check(entry);
                copyIn(walk, directories, entry, source, directory);
            }
        }
    }

    private void copyIn(ConfinedWalk walk, Map<String, SecureDirectoryStream<Path>> directories, TransferEntry entry,
                        FileTransferSandbox.Source source, String base) {
        String parentPath = parentOf(entry.path());
        SecureDirectoryStream<Path> parent = directories.computeIfAbsent(parentPath,
                p -> walk.descend(directories.get(""), walk.components(p), entry.path()));
        String name = entry.name();
        walk.components(entry.path()); // refuses a '..' component: entries stay below the copy's directory
        String target = base + "/" + entry.path();
        PosixFileAttributes there = ConfinedWalk.attributes(parent, name, target);
        switch (entry.type()) {
            case DIRECTORY -> {
                if (there == null) {
                    staging.createDirectory(parent, name, permissions(entry.mode() | 0700), target);
                } else if (!there.isDirectory()) {
                    throw new SandboxFileException(StandardErrorCode.NOT_A_DIRECTORY, target, "Cannot copy directory '" + entry.path() + "' to " + target
                            + ": a non-directory is there.");
                }
                directories.put(entry.path(), walk.openDirectory(parent, name, target));
            }
            case SYMLINK -> {
                refuseDirectory(there, entry, target);
                staging.createLink(parent, name, entry.linkTarget(), target);
            }
            case FILE -> {
                refuseDirectory(there, entry, target);
                try (InputStream in = open(source, entry)) {
                    writeBeside(parent, name, in, entry.size(), permissions(entry.mode()), target);
                } catch (IOException e) {
                    throw failed("write", target, e);
                }
            }
        }
    }

    private static void refuseDirectory(PosixFileAttributes there, TransferEntry entry, String target) {
        if (there != null && there.isDirectory()) {
            throw new SandboxFileException(StandardErrorCode.IS_A_DIRECTORY, target, "Cannot copy '" + entry.path() + "' to " + target
                    + ": a directory is there.");
        }
    }

    private static InputStream open(FileTransferSandbox.Source source, TransferEntry entry) {
        try {
            return source.open(entry);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not open the content of '" + entry.path() + "': " + e.getMessage(), e);
        }
    }

    void copyOut(String root, String path, FileTransferSandbox.Sink sink) {
        try (ConfinedWalk walk = open(root)) {
            List<String> components = walk.below(path).orElseThrow(() -> new PathOutsideRootException(path, root, "it is not under the root"));
            if (components.isEmpty()) {
                String top = walk.canonicalRoot().getFileName() == null ? "root" : walk.canonicalRoot().getFileName().toString();
                copyOutDirectory(walk, walk.root(), top, path, sink);
                return;
            }
            SecureDirectoryStream<Path> parent = walk.descend(walk.root(), components.subList(0, components.size() - 1), path);
            String name = components.get(components.size() - 1);
            PosixFileAttributes attributes = ConfinedWalk.attributes(parent, name, path);
            if (attributes == null) {
                throw new SandboxFileException(StandardErrorCode.FILE_NOT_FOUND, path, "Cannot copy " + path + ": it does not exist.");
            }
            copyOutEntry(walk, parent, name, name, attributes, path, sink, components.subList(0, components.size() - 1));
        }
    }

    private void copyOutEntry(ConfinedWalk walk, SecureDirectoryStream<Path> parent, String name, String shownName, PosixFileAttributes attributes,
                              String path, FileTransferSandbox.Sink sink, List<String> parentComponents) {
        if (attributes.isDirectory()) {
            List<String> here = new ArrayList<>(parentComponents);
            here.add(name);
            copyOutDirectory(walk, walk.openDirectory(parent, name, path), shownName, path, sink, here);
        } else if (attributes.isSymbolicLink()) {
            deliver(sink, TransferEntry.symlink(shownName, walk.readLink(parentComponents, name, attributes, path)), InputStream.nullInputStream());
        } else if (attributes.isRegularFile()) {
            try (SeekableByteChannel channel = parent.newByteChannel(Path.of(name), Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS));
                 InputStream in = Channels.newInputStream(channel)) {
                deliver(sink, TransferEntry.file(shownName, attributes.size(), mode(attributes)), in);
            } catch (IOException e) {
                throw failed("copy", path, e);
            }
        }
    }

    private void copyOutDirectory(ConfinedWalk walk, SecureDirectoryStream<Path> directory, String shownName, String path,
                                  FileTransferSandbox.Sink sink) {
        copyOutDirectory(walk, directory, shownName, path, sink, List.of());
    }

    private void copyOutDirectory(ConfinedWalk walk, SecureDirectoryStream<Path> directory, String shownName, String path,
                                  FileTransferSandbox.Sink sink, List<String> components) {
        PosixFileAttributes self = ConfinedWalk.attributes(directory, null, path);
        deliver(sink, TransferEntry.directory(shownName, mode(self)), InputStream.nullInputStream());
        List<String> children = new ArrayList<>();
        for (Path child : directory) {
            children.add(child.getFileName().toString());
        }
        children.sort(null);
        for (String child : children) {
            PosixFileAttributes attributes = ConfinedWalk.attributes(directory, child, path);
            if (attributes != null) {
                copyOutEntry(walk, directory, child, shownName + "/" + child, attributes, path, sink, components);
            }
        }
    }

    private static void deliver(FileTransferSandbox.Sink sink, TransferEntry entry, InputStream content) {
        try {
            sink.accept(entry, content);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not take '" + entry.path() + "': " + e.getMessage(), e);
        }
    }

    // ---- helpers ----------------------------------------------------------------------------------

    private ConfinedWalk open(String root) {
        return ConfinedWalk.open(sessionDirectory, root);
    }

    private static void requireExisting(ConfinedWalk.Position at, String path) {
        if (at.missing()) {
            throw new SandboxFileException(StandardErrorCode.FILE_NOT_FOUND, shown(path), "Cannot use '" + shown(path) + "': it does not exist under the root.");
        }
    }

    private static void copy(InputStream in, OutputStream out, long size, String path) throws IOException {
        byte[] buffer = new byte[BUFFER];
        long left = size < 0 ? Long.MAX_VALUE : size;
        while (left > 0) {
            int n;
            try {
                n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            } catch (IOException e) {
                throw new UncheckedIOException("Could not read the content for '" + path + "': " + e.getMessage(), e);
            }
            if (n < 0) {
                if (size < 0) {
                    return;
                }
                throw new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, path, "Cannot write " + path
                        + ": its content ended after " + (size - left) + " of " + size + " bytes.");
            }
            out.write(buffer, 0, n);
            left -= n;
        }
    }

    private static String parentOf(String path) {
        int slash = path.lastIndexOf('/');
        return slash < 0 ? "" : path.substring(0, slash);
    }

    private static String shown(String path) {
        return path.isEmpty() ? "." : path;
    }

    private static SandboxFileException failed(String verb, String path, IOException e) {
        return new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, shown(path), "Cannot " + verb + " '" + shown(path) + "': " + e + ".", e);
    }

    private static FileTransferSandbox.Kind kind(BasicFileAttributes attributes) {
        return attributes.isDirectory() ? FileTransferSandbox.Kind.DIRECTORY
                : attributes.isRegularFile() ? FileTransferSandbox.Kind.FILE : FileTransferSandbox.Kind.OTHER;
    }

    private static FileStat stat(String name, PosixFileAttributes attributes) {
        int type = attributes.isDirectory() ? 0040000 : attributes.isRegularFile() ? 0100000 : attributes.isSymbolicLink() ? 0120000 : 0010000;
        return new FileStat(name, type | mode(attributes), attributes.size(), attributes.lastModifiedTime().toInstant());
    }

    private static int mode(PosixFileAttributes attributes) {
        int mode = 0;
        for (PosixFilePermission p : attributes.permissions()) {
            mode |= 1 << (8 - p.ordinal());
        }
        return mode;
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        for (PosixFilePermission p : PosixFilePermission.values()) {
            if ((mode & (1 << (8 - p.ordinal()))) != 0) {
                set.add(p);
            }
        }
        return set;
    }
}
