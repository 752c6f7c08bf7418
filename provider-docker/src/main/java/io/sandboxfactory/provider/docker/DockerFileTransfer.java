package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.provider.support.ProviderClosedException;
import com.github.dockerjava.api.DockerClient;
import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.provider.support.RemoteFiles;
import io.sandboxfactory.api.files.PathOutsideRootException;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;
import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.api.support.SandboxPaths;
import io.sandboxfactory.provider.support.TarEntries;
import io.sandboxfactory.provider.support.TarStream;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Locale;
import java.util.Optional;

/**
 * The docker provider's {@link FileTransferSandbox}: the Engine API's archive endpoints ({@code PUT}
 * and {@code GET /containers/{id}/archive}), one request per copy whatever the number of files,
 * with the tar streamed both ways.
 *
 * <p>Uploads set {@code noOverwriteDirNonDir}, so an entry never replaces a directory by a
 * non-directory or the other way round; the engine also refuses a relative symbolic link that
 * climbs out of the directory it extracts into (as with {@code docker cp}), after writing the entries
 * before it. Uploads and path resolution go through {@link EngineArchive} (plain sockets; docker-java
 * over TLS); downloads through docker-java. Paths must lie under the root (checked lexically here:
 * the caller resolved them); the engine resolves them inside the container. Hard links in a
 * downloaded archive are delivered as the files they link to.
 *
 * @param connection the engine connection of the sandboxes' provider instance
 * @param sessionId the session whose container the files move in or out of, for messages
 * @param user who the files copied in belong to (the container's user)
 */
record DockerFileTransfer(DockerConnection connection, String sessionId, ContainerUser user) implements RemoteFiles<String> {

    /** Resolves with one {@code HEAD} per path component (see {@link EngineArchive}); empty over TLS. */
    @Override
    public Optional<FileTransferSandbox.Resolution> resolve(String containerId, String path) {
        EngineArchive archive = archive();
        if (!archive.supported()) {
            return Optional.empty();
        }
        try {
            return Optional.of(SandboxPaths.resolve(path, p -> archive.lstat(containerId, p)));
        } catch (IOException e) {
            throw new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, path, "Cannot resolve " + path + " in sandbox '" + sessionId
                    + "': " + e.getMessage(), e);
        }
    }

    @Override
    public void copyIn(String containerId, String root, String directory, FileTransferSandbox.Source source) {
        requireUnder(root, directory);
        TarStream tar = new TarStream(source, user.uid(), user.gid());
        try (tar) {
            put(containerId, directory, tar);
        } catch (IOException | RuntimeException e) {
            if (tar.failure().isPresent()) {
                throw tar.failure().get();
            }
            if (e instanceof EngineArchive.EngineError refused) {
                throw refused(refused, directory);
            }
            if (e instanceof IOException io) {
                throw new SandboxExecTransportException("Lost the connection while copying into " + directory + " in sandbox '"
                        + sessionId + "'; some files may have been written: " + io.getMessage(), true, io);
            }
            throw failure((RuntimeException) e, directory, "copy into");
        }
    }

    /**
     * Extracts {@code tar} into {@code directory} of the container (started or not), never replacing
     * a directory by a non-directory or the other way round; the engine keeps the owners the headers name.
     */
    void put(String containerId, String directory, InputStream tar) throws IOException {
        EngineArchive archive = archive();
        if (archive.supported()) {
            archive.put(containerId, directory, tar);
        } else {
            client().copyArchiveToContainerCmd(containerId)
                    .withRemotePath(directory)
                    .withNoOverwriteDirNonDir(true)
                    .withTarInputStream(tar)
                    .exec();
        }
    }

    private EngineArchive archive() {
        return new EngineArchive(connection.host(), connection.usesTls(), connection.apiVersion().getVersion());
    }

    @Override
    public void copyOut(String containerId, String root, String path, FileTransferSandbox.Sink sink) {
        requireUnder(root, path);
        DockerClient client = client();
        try (InputStream body = client.copyArchiveFromContainerCmd(containerId, path).exec()) {
            TarEntries.deliver(body, path, sink, (original, into) -> copyOut(containerId, root, original, into));
        } catch (SandboxException | UncheckedIOException e) {
            throw e;
        } catch (IOException e) {
            throw new SandboxExecTransportException("Lost the archive of " + path + " from sandbox '" + sessionId + "': "
                    + e.getMessage(), true, e);
        } catch (RuntimeException e) {
            throw failure(e, path, "copy");
        }
    }

    private DockerClient client() {
        try {
            return connection.client();
        } catch (ProviderClosedException closed) {
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

    private SandboxException refused(EngineArchive.EngineError e, String directory) {
        return classify(e.status() == 404, e.status() == 409, e.getMessage(), e, directory, "copy into");
    }

    private SandboxException failure(RuntimeException e, String path, String verb) {
        return classify(DockerFailures.isNotFound(e), DockerFailures.isConflict(e), DockerFailures.message(e), e, path, verb);
    }

    private SandboxException classify(boolean notFound, boolean conflict, String message, Exception e, String path, String verb) {
        String lower = message.toLowerCase(Locale.ROOT);
        if (notFound && lower.contains("no such container")) {
            return new SandboxDestroyedException("Sandbox '" + sessionId + "' is gone: its container is removed (" + message + ").", e);
        }
        if (notFound) {
            return new SandboxFileException(StandardErrorCode.FILE_NOT_FOUND, path, "Cannot " + verb + " " + path + " in sandbox '"
                    + sessionId + "': it does not exist (" + message + ").", e);
        }
        if (conflict) {
            return new SandboxDestroyedException("Sandbox '" + sessionId + "' cannot take files: its container is not running ("
                    + message + ").", e);
        }
        return new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, path, "Cannot " + verb + " " + path + " in sandbox '"
                + sessionId + "': " + message + ".", e);
    }
}
