package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.DockerClient;
import io.sandboxfactory.api.FileTransferSandbox;
import io.sandboxfactory.api.PathOutsideRootException;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;
import io.sandboxfactory.api.SandboxFileException;
import io.sandboxfactory.api.TransferEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.apache.commons.io.input.CloseShieldInputStream;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * The docker provider's {@link FileTransferSandbox}: the Engine API's archive endpoints ({@code PUT}
 * and {@code GET /containers/{id}/archive}), one request per copy whatever the number of files,
 * with the tar streamed both ways.
 *
 * <p>Uploads set {@code noOverwriteDirNonDir}, so an entry never replaces a directory by a
 * non-directory or the other way round; the engine also refuses a symbolic link pointing outside
 * the directory it extracts into (as {@code docker cp} does). Paths must lie under the root (checked
 * lexically here: the caller resolved them); the engine resolves them inside the container.
 * Hard links in a downloaded archive are delivered as the files they link to.
 */
final class DockerFileTransfer {

    private final DockerConnection connection;
    private final String sessionId;

    DockerFileTransfer(DockerConnection connection, String sessionId) {
        this.connection = connection;
        this.sessionId = sessionId;
    }

    void copyIn(String containerId, String root, String directory, FileTransferSandbox.Source source) {
        requireUnder(root, directory);
        DockerClient client = client();
        TarStream tar = new TarStream(source);
        try (tar) {
            client.copyArchiveToContainerCmd(containerId)
                    .withRemotePath(directory)
                    .withNoOverwriteDirNonDir(true)
                    .withTarInputStream(tar)
                    .exec();
        } catch (IOException | RuntimeException e) {
            if (tar.failure().isPresent()) {
                throw tar.failure().get();
            }
            if (e instanceof IOException io) {
                throw new UncheckedIOException("Could not close the content of the copy: " + io.getMessage(), io);
            }
            throw failure((RuntimeException) e, directory, "copy into");
        }
    }

    void copyOut(String containerId, String root, String path, FileTransferSandbox.Sink sink) {
        requireUnder(root, path);
        DockerClient client = client();
        String parent = path.substring(0, Math.max(path.lastIndexOf('/'), 1));
        try (InputStream body = client.copyArchiveFromContainerCmd(containerId, path).exec();
             TarArchiveInputStream tar = new TarArchiveInputStream(body, StandardCharsets.UTF_8.name())) {
            TarArchiveEntry header;
            while ((header = tar.getNextEntry()) != null) {
                String name = trimSlash(header.getName());
                int mode = header.getMode() & 07777;
                if (header.isDirectory()) {
                    deliver(sink, TransferEntry.directory(name, mode), InputStream.nullInputStream());
                } else if (header.isSymbolicLink()) {
                    deliver(sink, TransferEntry.symlink(name, header.getLinkName()), InputStream.nullInputStream());
                } else if (header.isLink()) {
                    // The archive names an earlier entry instead of repeating its content: fetch that file.
                    deliverHardLink(containerId, root, parent + "/" + trimSlash(header.getLinkName()), name, mode, sink);
                } else if (header.isFile()) {
                    deliver(sink, TransferEntry.file(name, header.getSize(), mode), CloseShieldInputStream.wrap(tar));
                }
            }
        } catch (SandboxException | UncheckedIOException e) {
            throw e;
        } catch (IOException e) {
            throw new SandboxExecTransportException("Lost the archive of " + path + " from sandbox '" + sessionId + "': "
                    + e.getMessage(), true, e);
        } catch (RuntimeException e) {
            throw failure(e, path, "copy");
        }
    }

    private void deliverHardLink(String containerId, String root, String original, String name, int mode, FileTransferSandbox.Sink sink) {
        boolean[] delivered = {false};
        copyOut(containerId, root, original, (entry, content) -> {
            if (!delivered[0] && entry.type() == TransferEntry.Type.FILE) {
                delivered[0] = true;
                sink.accept(TransferEntry.file(name, entry.size(), mode), content);
            }
        });
    }

    private static void deliver(FileTransferSandbox.Sink sink, TransferEntry entry, InputStream content) {
        try {
            sink.accept(entry, content);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not take '" + entry.path() + "': " + e.getMessage(), e);
        }
    }

    private static String trimSlash(String name) {
        String trimmed = name;
        while (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        while (trimmed.startsWith("./")) {
            trimmed = trimmed.substring(2);
        }
        return trimmed;
    }

    private DockerClient client() {
        try {
            return connection.client();
        } catch (IllegalStateException closed) {
            throw new SandboxExecTransportException("Cannot copy files of sandbox '" + sessionId + "': " + closed.getMessage(), false, closed);
        }
    }

    /** The caller resolved {@code path}; it must still name the root or a path below it, without {@code ..}. */
    private static void requireUnder(String root, String path) {
        String base = root.endsWith("/") ? root : root + "/";
        boolean under = path.equals(root) || path.startsWith(base);
        if (!under || ("/" + path + "/").contains("/../")) {
            throw new PathOutsideRootException(path, root, "it is not below the root");
        }
    }

    private SandboxException failure(RuntimeException e, String path, String verb) {
        String message = DockerFailures.message(e);
        String lower = message.toLowerCase(Locale.ROOT);
        if (DockerFailures.isNotFound(e) && lower.contains("no such container")) {
            return new SandboxDestroyedException("Sandbox '" + sessionId + "' is gone: its container is removed (" + message + ").", e);
        }
        if (DockerFailures.isNotFound(e)) {
            return new SandboxFileException(SandboxFileException.NOT_FOUND, path, "Cannot " + verb + " " + path + " in sandbox '"
                    + sessionId + "': it does not exist (" + message + ").", e);
        }
        if (DockerFailures.isConflict(e)) {
            return new SandboxDestroyedException("Sandbox '" + sessionId + "' cannot take files: its container is not running ("
                    + message + ").", e);
        }
        return new SandboxFileException(SandboxFileException.FAILED, path, "Cannot " + verb + " " + path + " in sandbox '"
                + sessionId + "': " + message + ".", e);
    }
}
