package io.sandboxfactory.core.files;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.files.SandboxFileException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Copies between the host and a sandbox for {@link SandboxFilesystem}, as {@code docker cp} does:
 * decides the directory and the name on each side, then hands the tree to the transfer.
 */
final class HostCopies {

    private final SandboxRoot root;
    private final FileOperations operations;
    private final ContentTransfer transfer;

    HostCopies(SandboxRoot root, FileOperations operations, ContentTransfer transfer) {
        this.root = root;
        this.operations = operations;
        this.transfer = transfer;
    }

    /** See {@link SandboxFilesystem#copyIn(Path, String, TransferProgress)}. */
    TransferSummary copyIn(Path hostSource, String target, TransferProgress progress) {
        Objects.requireNonNull(progress, "progress");
        Path source = hostSource.toAbsolutePath().normalize();
        if (!Files.exists(source, LinkOption.NOFOLLOW_LINKS)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_PATH, "Host path " + hostSource + " does not exist.");
        }
        if (source.getFileName() == null) {
            throw new InvalidInputException(StandardErrorCode.INVALID_PATH, "Host path " + hostSource + " is the file system root; copy a directory below it.");
        }
        String destination = root.normalize(target);
        Resolved resolved = transfer.resolve(destination);
        Resolved directory;
        String directoryPath;
        String name;
        if (resolved.directory()) {
            directory = resolved;
            directoryPath = destination;
            name = source.getFileName().toString();
        } else {
            if (!resolved.missing() && Files.isDirectory(source, LinkOption.NOFOLLOW_LINKS)) {
                throw new SandboxFileException(StandardErrorCode.NOT_A_DIRECTORY, FileCommands.display(destination),
                        "Cannot copy directory " + hostSource + " onto '" + FileCommands.display(destination) + "': it is not a directory.");
            }
            directoryPath = SandboxRoot.parent(destination);
            Resolved parent = transfer.resolve(directoryPath);
            directory = parent.directory() ? parent : operations.mkdirs(directoryPath);
            name = SandboxRoot.name(destination);
        }
        HostTree tree = HostTree.scan(source, name);
        CountingSource counted = new CountingSource(tree, tree.totalBytes(), progress);
        transfer.copyIn(directory, directoryPath, counted);
        return counted.summary();
    }

    /** See {@link SandboxFilesystem#copyOut(String, Path, TransferProgress)}. */
    TransferSummary copyOut(String source, Path hostTarget, TransferProgress progress) {
        Objects.requireNonNull(progress, "progress");
        String path = root.normalize(source);
        Resolved resolved = transfer.resolve(path);
        String shown = FileCommands.display(path);
        if (resolved.missing()) {
            throw new SandboxFileException(StandardErrorCode.FILE_NOT_FOUND, shown, "Cannot copy '" + shown
                    + "': it does not exist under the root " + root + ".");
        }
        if (!resolved.directory() && !resolved.regularFile()) {
            throw new SandboxFileException(StandardErrorCode.NOT_A_REGULAR_FILE, shown, "Cannot copy '" + shown
                    + "': it is neither a regular file nor a directory.");
        }
        Path target = hostTarget.toAbsolutePath().normalize();
        try {
            Path directory;
            String name;
            if (Files.isDirectory(target)) {
                directory = target;
                name = path.isEmpty() ? resolved.name() : SandboxRoot.name(path);
            } else {
                if (Files.exists(target, LinkOption.NOFOLLOW_LINKS) && resolved.directory()) {
                    throw new InvalidInputException(StandardErrorCode.INVALID_PATH, "Cannot copy directory '" + shown + "' onto host file " + hostTarget
                            + ": it is not a directory.");
                }
                if (target.getParent() == null) {
                    throw new InvalidInputException(StandardErrorCode.INVALID_PATH, "Host path " + hostTarget + " is the file system root.");
                }
                directory = Files.createDirectories(target.getParent());
                name = target.getFileName().toString();
            }
            HostTreeWriter writer = new HostTreeWriter(directory.toRealPath(), progress);
            transfer.copyOut(resolved, path, name, writer);
            return writer.summary();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write under " + hostTarget + ": " + e.getMessage(), e);
        }
    }
}
