package io.sandboxfactory.provider.support;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxNotReadyException;

import java.util.Optional;

/**
 * A {@link MastraSandbox} reached through a handle on a physical sandbox elsewhere (a container, a
 * pod): commands run through its {@link RemoteCommands}, files move through its {@link
 * RemoteFiles}, both given the current handle. Every transfer starts the sandbox when it is not
 * running, as {@code executeCommand} does. Its working directory is fixed when it is made.
 *
 * @param <H> the provider's handle on its physical sandbox
 */
public abstract class RemoteSandbox<H> extends MastraSandbox<H> implements FileTransferSandbox {

    private final String workingDirectory;
    private final RemoteCommands<H> commands;
    private final RemoteFiles<H> files;

    protected RemoteSandbox(String id, String name, String workingDirectory, RemoteCommands<H> commands, RemoteFiles<H> files) {
        super(id, name);
        this.workingDirectory = workingDirectory;
        this.commands = commands;
        this.files = files;
    }

    @Override
    public final Optional<String> workingDirectory() {
        return Optional.of(workingDirectory);
    }

    @Override
    protected final CommandResult doExecute(CommandRequest request) {
        // The base class started the sandbox; only a stop that raced this command leaves no handle.
        H handle = handle().orElseThrow(() -> new SandboxNotReadyException("Sandbox '" + id() + "' is not started; start it first."));
        return commands.run(handle, request);
    }

    /**
     * For {@code connect}: ends what hosts now provably gone left running in the physical sandbox
     * {@code handle} (see {@link DeadHostReaper}), through this sandbox's command path.
     */
    protected final void reapDeadHosts(H handle) {
        DeadHostReaper.reap(id(), request -> commands.run(handle, request));
    }

    @Override
    public final void copyIn(String root, String directory, Source source) {
        files.copyIn(runningHandle(), root, directory, source);
    }

    @Override
    public final void copyOut(String root, String path, Sink sink) {
        files.copyOut(runningHandle(), root, path, sink);
    }

    @Override
    public final Optional<Resolution> resolve(String path) {
        return files.resolve(runningHandle(), path);
    }
}
