package io.sandboxfactory.core.files;

import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.files.TransferEntry;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A file, symbolic link or directory tree on the host, as the entries of a copy into a sandbox: the
 * top entry renamed to the name it gets in the sandbox, every directory before its contents,
 * symbolic links copied as links (never followed, as {@code docker cp} does), devices, sockets and
 * FIFOs skipped. Files are opened without following links.
 */
final class HostTree implements FileTransferSandbox.Source {

    private final Path source;
    private final String name;
    private final List<TransferEntry> entries;
    private final long totalBytes;

    private HostTree(Path source, String name, List<TransferEntry> entries, long totalBytes) {
        this.source = source;
        this.name = name;
        this.entries = List.copyOf(entries);
        this.totalBytes = totalBytes;
    }

    /** Scans {@code source}; its entry is called {@code name}. */
    static HostTree scan(Path source, String name) {
        List<TransferEntry> entries = new ArrayList<>();
        long[] total = {0};
        try {
            Files.walkFileTree(source, EnumSet.noneOf(FileVisitOption.class), Integer.MAX_VALUE, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) throws IOException {
                    entries.add(TransferEntry.directory(entryPath(source, dir, name), mode(dir)));
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                    String path = entryPath(source, file, name);
                    if (attrs.isSymbolicLink()) {
                        entries.add(TransferEntry.symlink(path, Files.readSymbolicLink(file).toString()));
                    } else if (attrs.isRegularFile()) {
                        entries.add(TransferEntry.file(path, attrs.size(), mode(file)));
                        total[0] += attrs.size();
                    }
                    return FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
                    throw exc;
                }
            });
        } catch (NoSuchFileException e) {
            throw new InvalidInputException(StandardErrorCode.INVALID_PATH, "Host path " + source + " does not exist.", e);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read host path " + source + ": " + e.getMessage(), e);
        }
        return new HostTree(source, name, entries, total[0]);
    }

    private static String entryPath(Path source, Path file, String name) {
        if (file.equals(source)) {
            return name;
        }
        StringBuilder path = new StringBuilder(name);
        for (Path component : source.relativize(file)) {
            path.append('/').append(component);
        }
        return path.toString();
    }

    private static int mode(Path file) throws IOException {
        try {
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS);
            int mode = 0;
            for (PosixFilePermission p : permissions) {
                mode |= 1 << (8 - p.ordinal());
            }
            return mode;
        } catch (UnsupportedOperationException e) {
            return Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS) ? 0755 : 0644;
        }
    }

    @Override
    public List<TransferEntry> entries() {
        return entries;
    }

    /** Bytes of all file content. */
    long totalBytes() {
        return totalBytes;
    }

    @Override
    public InputStream open(TransferEntry file) throws IOException {
        Path host = source;
        String rest = file.path().equals(name) ? "" : file.path().substring(name.length() + 1);
        if (!rest.isEmpty()) {
            for (String component : rest.split("/")) {
                host = host.resolve(component);
            }
        }
        return Files.newInputStream(host, LinkOption.NOFOLLOW_LINKS);
    }
}
