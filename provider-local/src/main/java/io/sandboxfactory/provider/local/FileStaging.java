package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.api.error.StandardErrorCode;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SecureDirectoryStream;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Set;
import java.util.UUID;

/**
 * Makes directories and symbolic links inside a session's tree without a path: java.nio has no
 * {@code mkdirat} or {@code symlinkat}, so the entry is made in a staging directory of the
 * provider's own (beside the session directories, on the same file system, never visible to a
 * session) and renamed into the open parent directory ({@code renameat}), which no swap of the
 * session's directories can redirect.
 */
final class FileStaging {

    static final String DIRECTORY = ".file-staging";

    private final Path staging;

    FileStaging(Path sessionDirectory) {
        this.staging = sessionDirectory.resolveSibling(DIRECTORY);
    }

    /** Creates directory {@code name} in {@code parent} with {@code permissions}. */
    void createDirectory(SecureDirectoryStream<Path> parent, String name, Set<PosixFilePermission> permissions, String path) {
        place(parent, name, path, entry -> {
            Files.createDirectory(entry);
            Files.setPosixFilePermissions(entry, permissions);
        });
    }

    /** Creates (or replaces a non-directory by) the symbolic link {@code name} to {@code target} in {@code parent}. */
    void createLink(SecureDirectoryStream<Path> parent, String name, String target, String path) {
        place(parent, name, path, entry -> Files.createSymbolicLink(entry, Path.of(target)));
    }

    private interface Maker {
        void make(Path entry) throws IOException;
    }

    private void place(SecureDirectoryStream<Path> parent, String name, String path, Maker maker) {
        Path entry = staging.resolve(".sf-" + UUID.randomUUID());
        try {
            Files.createDirectories(staging);
            maker.make(entry);
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(staging)) {
                if (!(stream instanceof SecureDirectoryStream<Path> secure)) {
                    throw new IOException("no directory-relative operations on " + staging);
                }
                secure.move(entry.getFileName(), parent, Path.of(name));
            }
        } catch (IOException e) {
            throw new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, path, "Cannot create '" + path + "': " + e.getMessage() + ".", e);
        } finally {
            try {
                Files.deleteIfExists(entry);
            } catch (IOException ignored) {
                // Only when the rename failed; the staging directory is the provider's own.
            }
        }
    }
}
