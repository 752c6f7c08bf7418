package io.sandboxfactory.provider.support;

import io.sandboxfactory.api.FileTransferSandbox;
import io.sandboxfactory.api.MastraSandbox;

import java.util.Optional;

/**
 * A {@link MastraSandbox} whose files move through {@link RemoteFiles}: every transfer starts the
 * sandbox when it is not running and reaches the physical sandbox through its current handle, as
 * {@code executeCommand} does.
 *
 * @param <H> the provider's handle on its physical sandbox
 */
public abstract class RemoteFilesSandbox<H> extends MastraSandbox<H> implements FileTransferSandbox {

    protected RemoteFilesSandbox(String id, String name) {
        super(id, name);
    }

    /** How this sandbox's files move. */
    protected abstract RemoteFiles<H> files();

    @Override
    public final void copyIn(String root, String directory, Source source) {
        files().copyIn(runningHandle(), root, directory, source);
    }

    @Override
    public final void copyOut(String root, String path, Sink sink) {
        files().copyOut(runningHandle(), root, path, sink);
    }

    @Override
    public final Optional<Resolution> resolve(String path) {
        return files().resolve(runningHandle(), path);
    }
}
