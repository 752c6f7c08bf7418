package io.sandboxfactory.core.files;

import io.sandboxfactory.api.files.PathOutsideRootException;
import io.sandboxfactory.api.files.TransferEntry;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.Set;

/**
 * Writes a tree copied out of a sandbox under a host directory, without ever leaving it: every
 * parent of an entry must be a real directory under the destination (a symbolic link there, even
 * one this copy wrote, is refused with {@link PathOutsideRootException}); files are written to a
 * temporary file and renamed over the target, so a symbolic link at the target is replaced, never
 * followed. Counts what it wrote and reports progress.
 */
final class HostTreeWriter implements TreeSink {

    private final Path directory;
    private final TransferProgress progress;
    private final Set<Path> verified = new HashSet<>();
    private long files;
    private long directories;
    private long symlinks;
    private long bytes;

    /** @param directory an existing, real directory */
    HostTreeWriter(Path directory, TransferProgress progress) {
        this.directory = directory;
        this.progress = progress;
        verified.add(directory);
    }

    @Override
    public void directory(TransferEntry entry) throws IOException {
        Path target = target(entry);
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            verified.add(target);
        } else if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(target.toString(), null, "cannot replace a non-directory with a directory");
        } else {
            Files.createDirectory(target);
            verified.add(target);
            permissions(target, entry.mode() | 0700);
        }
        directories++;
    }

    @Override
    public void symlink(TransferEntry entry) throws IOException {
        Path target = target(entry);
        refuseDirectory(target);
        Files.deleteIfExists(target);
        Files.createSymbolicLink(target, Path.of(entry.linkTarget()));
        symlinks++;
    }

    @Override
    public void file(TransferEntry entry, Content content) throws IOException {
        Path target = target(entry);
        refuseDirectory(target);
        Path temp = Files.createTempFile(target.getParent(), ".sf-", ".part");
        try {
            try (OutputStream out = new Counting(Files.newOutputStream(temp))) {
                content.writeTo(out);
            }
            permissions(temp, entry.mode());
            Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } finally {
            Files.deleteIfExists(temp);
        }
        files++;
    }

    TransferSummary summary() {
        return new TransferSummary(files, directories, symlinks, bytes);
    }

    /** The host path of {@code entry}, once every parent is known to be a real directory under the destination. */
    private Path target(TransferEntry entry) {
        Path parent = directory;
        String[] components = entry.path().split("/");
        for (int i = 0; i < components.length - 1; i++) {
            parent = parent.resolve(components[i]);
            if (!verified.contains(parent)) {
                if (!Files.isDirectory(parent, LinkOption.NOFOLLOW_LINKS)) {
                    throw new PathOutsideRootException(entry.path(), directory.toString(),
                            "its parent " + parent + " is not a real directory (a symbolic link would lead outside)");
                }
                verified.add(parent);
            }
        }
        return parent.resolve(components[components.length - 1]);
    }

    private static void refuseDirectory(Path target) throws IOException {
        if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            throw new FileAlreadyExistsException(target.toString(), null, "cannot replace a directory with a non-directory");
        }
    }

    private static void permissions(Path path, int mode) throws IOException {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        for (PosixFilePermission p : PosixFilePermission.values()) {
            if ((mode & (1 << (8 - p.ordinal()))) != 0) {
                set.add(p);
            }
        }
        try {
            Files.setPosixFilePermissions(path, set);
        } catch (UnsupportedOperationException ignored) {
            // A filesystem without POSIX permissions keeps its defaults.
        }
    }

    private final class Counting extends FilterOutputStream {
        Counting(OutputStream out) {
            super(out);
        }

        @Override
        public void write(int b) throws IOException {
            out.write(b);
            count(1);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
            count(len);
        }

        private void count(long n) {
            bytes += n;
            progress.onProgress(bytes, -1);
        }
    }
}
