package io.sandboxfactory.provider.support;

import io.sandboxfactory.api.files.FileTransferSandbox;

import java.util.Optional;

/**
 * A provider's file transfer to the physical sandbox named by a handle (a container id, a pod
 * name): the {@link FileTransferSandbox} operations with the handle made explicit, so {@link
 * RemoteSandbox} can supply the handle of a running sandbox.
 *
 * @param <H> the provider's handle on its physical sandbox
 */
public interface RemoteFiles<H> {

    /** {@link FileTransferSandbox#copyIn} into the physical sandbox {@code handle}. */
    void copyIn(H handle, String root, String directory, FileTransferSandbox.Source source);

    /** {@link FileTransferSandbox#copyOut} from the physical sandbox {@code handle}. */
    void copyOut(H handle, String root, String path, FileTransferSandbox.Sink sink);

    /** {@link FileTransferSandbox#resolve} in the physical sandbox {@code handle}; empty when it cannot answer cheaply. */
    default Optional<FileTransferSandbox.Resolution> resolve(H handle, String path) {
        return Optional.empty();
    }
}
