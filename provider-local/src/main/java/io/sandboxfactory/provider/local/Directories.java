package io.sandboxfactory.provider.local;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.stream.Stream;

/**
 * The local provider's directory walks: the entries of a directory it keeps (sessions, templates),
 * and a recursive delete that never follows symbolic links out of the tree, and that removes what
 * commands made read-only (Go's module cache, {@code chmod 000} directories) by restoring the
 * owner's permissions on directories inside the tree first.
 */
final class Directories {

    private Directories() {
    }

    /** The entries of {@code dir}, none when it does not exist yet; {@code what} names them in a failure. */
    static List<Path> children(Path dir, String what) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> children = Files.list(dir)) {
            return children.toList();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not list " + what + " under " + dir + ": " + e.getMessage(), e);
        }
    }

    static void deleteRecursively(Path root) throws IOException {
        if (!Files.exists(root, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                // Entries of a read-only directory cannot be unlinked.
                if (!Files.isWritable(dir)) {
                    ownerMayEnter(dir);
                }
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException exc) throws IOException {
                if (exc instanceof NoSuchFileException) {
                    return FileVisitResult.CONTINUE;
                }
                // A directory that could not be opened (chmod 000) is opened up, then walked on its own.
                if (!Files.isDirectory(file, LinkOption.NOFOLLOW_LINKS) || !ownerMayEnter(file) || !Files.isReadable(file)) {
                    throw exc;
                }
                deleteRecursively(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                if (exc != null) {
                    throw exc;
                }
                Files.deleteIfExists(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static boolean ownerMayEnter(Path dir) {
        File file = dir.toFile();
        return file.setReadable(true) & file.setWritable(true) & file.setExecutable(true);
    }
}
