package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.FileTransferSandbox;
import io.sandboxfactory.api.PathOutsideRootException;
import io.sandboxfactory.api.SandboxFileException;
import io.sandboxfactory.api.support.CopyLinks;
import io.sandboxfactory.api.support.SandboxPaths;
import io.sandboxfactory.api.TransferEntry;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * The local provider's {@link FileTransferSandbox}: java.nio on the session directory, no process.
 *
 * <p>Confinement is checked again here, on the host: the root must resolve ({@code toRealPath})
 * inside the session directory, and every path inside the root. Entries are written below a
 * directory whose parents are checked to be real directories (never symbolic links, even ones the
 * same copy wrote), files through a temporary file renamed over the target (so a link at the
 * target is replaced, not followed), and read with {@code NOFOLLOW_LINKS}.
 */
final class LocalFileTransfer {

    private static final int BUFFER = 64 * 1024;

    private final Path sessionDirectory;

    LocalFileTransfer(Path sessionDirectory) {
        this.sessionDirectory = sessionDirectory;
    }

    /** Resolves with {@code lstat} on the host: no process. */
    FileTransferSandbox.Resolution resolve(String path) {
        try {
            return SandboxPaths.resolve(path, LocalFileTransfer::lstat);
        } catch (IOException e) {
            throw new SandboxFileException(ErrorCode.FILE_OPERATION_FAILED, path, "Cannot resolve " + path + ": " + e.getMessage(), e);
        }
    }

    private static Optional<SandboxPaths.Entry> lstat(String path) throws IOException {
        Path file = Path.of(path);
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        if (attributes.isSymbolicLink()) {
            return Optional.of(new SandboxPaths.Entry(FileTransferSandbox.Kind.OTHER, Files.readSymbolicLink(file).toString()));
        }
        FileTransferSandbox.Kind kind = attributes.isDirectory() ? FileTransferSandbox.Kind.DIRECTORY
                : attributes.isRegularFile() ? FileTransferSandbox.Kind.FILE : FileTransferSandbox.Kind.OTHER;
        return Optional.of(new SandboxPaths.Entry(kind, null));
    }

    void copyIn(String root, String directory, FileTransferSandbox.Source source) {
        Path rootReal = realRoot(root);
        Path base = real(directory, rootReal, root);
        if (!Files.isDirectory(base, LinkOption.NOFOLLOW_LINKS)) {
            throw new SandboxFileException(ErrorCode.NOT_A_DIRECTORY, directory, "Cannot copy into " + directory
                    + ": it is not a directory.");
        }
        Set<Path> verified = new HashSet<>();
        verified.add(base);
        CopyLinks links = new CopyLinks();
        for (TransferEntry entry : source.entries()) {
            links.check(entry);
            Path target = target(base, entry, verified, root);
            try {
                switch (entry.type()) {
                    case DIRECTORY -> {
                        if (!Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                            if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
                                throw new SandboxFileException(ErrorCode.NOT_A_DIRECTORY, target.toString(), "Cannot copy directory '"
                                        + entry.path() + "' to " + target + ": a non-directory is there.");
                            }
                            Files.createDirectory(target);
                            permissions(target, entry.mode() | 0700);
                        }
                        verified.add(target);
                    }
                    case SYMLINK -> {
                        refuseDirectory(target, entry);
                        Files.deleteIfExists(target);
                        Files.createSymbolicLink(target, Path.of(entry.linkTarget()));
                    }
                    case FILE -> writeFile(target, entry, source);
                }
            } catch (IOException e) {
                throw new SandboxFileException(ErrorCode.FILE_OPERATION_FAILED, target.toString(), "Cannot write " + target + ": " + e, e);
            }
        }
    }

    private void writeFile(Path target, TransferEntry entry, FileTransferSandbox.Source source) throws IOException {
        refuseDirectory(target, entry);
        Path temp = Files.createTempFile(target.getParent(), ".sf-", ".part");
        try {
            try (InputStream in = open(source, entry); OutputStream out = Files.newOutputStream(temp)) {
                copyExactly(in, out, entry, target);
            }
            permissions(temp, entry.mode());
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    private static InputStream open(FileTransferSandbox.Source source, TransferEntry entry) {
        try {
            return source.open(entry);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not open the content of '" + entry.path() + "': " + e.getMessage(), e);
        }
    }

    private static void copyExactly(InputStream in, OutputStream out, TransferEntry entry, Path target) throws IOException {
        byte[] buffer = new byte[BUFFER];
        long left = entry.size();
        while (left > 0) {
            int n;
            try {
                n = in.read(buffer, 0, (int) Math.min(buffer.length, left));
            } catch (IOException e) {
                throw new UncheckedIOException("Could not read the content of '" + entry.path() + "': " + e.getMessage(), e);
            }
            if (n < 0) {
                throw new SandboxFileException(ErrorCode.FILE_OPERATION_FAILED, target.toString(), "Cannot write " + target
                        + ": its content ended after " + (entry.size() - left) + " of " + entry.size() + " bytes.");
            }
            out.write(buffer, 0, n);
            left -= n;
        }
    }

    void copyOut(String root, String path, FileTransferSandbox.Sink sink) {
        Path rootReal = realRoot(root);
        Path given = Path.of(path);
        if (!Files.exists(given, LinkOption.NOFOLLOW_LINKS)) {
            throw new SandboxFileException(ErrorCode.FILE_NOT_FOUND, path, "Cannot copy " + path + ": it does not exist.");
        }
        // The entry itself is reported, not followed; its parent must be a real directory in the root.
        Path start = given.normalize().equals(Path.of(root).normalize()) || given.getParent() == null
                ? rootReal : real(given.getParent().toString(), rootReal, root).resolve(given.getFileName());
        String top = start.getFileName() == null ? "root" : start.getFileName().toString();
        try {
            Files.walkFileTree(start, EnumSet.noneOf(FileVisitOption.class), Integer.MAX_VALUE, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    deliver(sink, TransferEntry.directory(name(start, dir, top), mode(dir)), InputStream.nullInputStream());
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    String name = name(start, file, top);
                    if (attrs.isSymbolicLink()) {
                        deliver(sink, TransferEntry.symlink(name, Files.readSymbolicLink(file).toString()), InputStream.nullInputStream());
                    } else if (attrs.isRegularFile()) {
                        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
                            deliver(sink, TransferEntry.file(name, attrs.size(), mode(file)), in);
                        }
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
                    throw exc;
                }
            });
        } catch (IOException e) {
            throw new SandboxFileException(ErrorCode.FILE_OPERATION_FAILED, path, "Cannot copy " + path + ": " + e, e);
        }
    }

    private static void deliver(FileTransferSandbox.Sink sink, TransferEntry entry, InputStream content) {
        try {
            sink.accept(entry, content);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not take '" + entry.path() + "': " + e.getMessage(), e);
        }
    }

    private static String name(Path start, Path file, String top) {
        if (file.equals(start)) {
            return top;
        }
        StringBuilder name = new StringBuilder(top);
        for (Path component : start.relativize(file)) {
            name.append('/').append(component);
        }
        return name.toString();
    }

    /** The real root, which must lie in the session directory: this provider's own confinement. */
    private Path realRoot(String root) {
        Path sessionReal;
        Path rootReal;
        try {
            sessionReal = sessionDirectory.toRealPath();
            rootReal = Path.of(root).toRealPath();
        } catch (NoSuchFileException e) {
            throw new SandboxFileException(ErrorCode.FILE_NOT_FOUND, root, "Root " + root + " does not exist in the session directory "
                    + sessionDirectory + ".", e);
        } catch (IOException e) {
            throw new SandboxFileException(ErrorCode.FILE_OPERATION_FAILED, root, "Cannot resolve root " + root + ": " + e, e);
        }
        if (!rootReal.startsWith(sessionReal)) {
            throw new PathOutsideRootException(root, sessionDirectory.toString(), "it resolves to " + rootReal);
        }
        return rootReal;
    }

    /** {@code path} with every link resolved; it must lie under {@code rootReal}. */
    private static Path real(String path, Path rootReal, String root) {
        Path resolved;
        try {
            resolved = Path.of(path).toRealPath();
        } catch (NoSuchFileException e) {
            throw new SandboxFileException(ErrorCode.FILE_NOT_FOUND, path, "Cannot use " + path + ": it does not exist.", e);
        } catch (IOException e) {
            throw new SandboxFileException(ErrorCode.FILE_OPERATION_FAILED, path, "Cannot resolve " + path + ": " + e, e);
        }
        if (!resolved.startsWith(rootReal)) {
            throw new PathOutsideRootException(path, root, "it resolves to " + resolved);
        }
        return resolved;
    }

    /** Where {@code entry} goes under {@code base}, once each of its parents is known to be a real directory. */
    private static Path target(Path base, TransferEntry entry, Set<Path> verified, String root) {
        Path parent = base;
        String[] components = entry.path().split("/");
        for (int i = 0; i < components.length - 1; i++) {
            parent = parent.resolve(components[i]);
            if (!verified.contains(parent)) {
                if (!Files.isDirectory(parent, LinkOption.NOFOLLOW_LINKS)) {
                    throw new PathOutsideRootException(entry.path(), root, "its parent " + parent
                            + " is not a real directory (a symbolic link could lead outside)");
                }
                verified.add(parent);
            }
        }
        return parent.resolve(components[components.length - 1]);
    }

    private static void refuseDirectory(Path target, TransferEntry entry) {
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new SandboxFileException(ErrorCode.IS_A_DIRECTORY, target.toString(), "Cannot copy '" + entry.path()
                    + "' to " + target + ": a directory is there.");
        }
    }

    private static int mode(Path path) throws IOException {
        int mode = 0;
        for (PosixFilePermission p : Files.getPosixFilePermissions(path, LinkOption.NOFOLLOW_LINKS)) {
            mode |= 1 << (8 - p.ordinal());
        }
        return mode;
    }

    private static void permissions(Path path, int mode) throws IOException {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        for (PosixFilePermission p : PosixFilePermission.values()) {
            if ((mode & (1 << (8 - p.ordinal()))) != 0) {
                set.add(p);
            }
        }
        Files.setPosixFilePermissions(path, set);
    }
}
