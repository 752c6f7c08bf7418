package io.sandboxfactory.core.files;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.ExecutableSandbox;
import io.sandboxfactory.api.FileTransferSandbox;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxStatus;

import java.util.List;
import java.util.Optional;

/**
 * A sandbox as a passive reader may use it: every command and transfer first checks that the
 * sandbox is {@link SandboxStatus#RUNNING} and otherwise throws {@link NotMaterializedException}
 * instead of letting {@code executeCommand} start it. Lifecycle calls are refused.
 */
final class RunningOnly implements ExecutableSandbox {

    private final MastraSandbox<?> sandbox;
    private final String path;

    RunningOnly(MastraSandbox<?> sandbox, String path) {
        this.sandbox = sandbox;
        this.path = path;
    }

    /** The sandbox's fast path, guarded the same way, when it has one. */
    Optional<FileTransferSandbox> fastPath() {
        if (!(sandbox instanceof FileTransferSandbox transfer)) {
            return Optional.empty();
        }
        return Optional.of(new FileTransferSandbox() {
            @Override
            public Optional<Resolution> resolve(String path) {
                requireRunning();
                return transfer.resolve(path);
            }

            @Override
            public void copyIn(String root, String directory, Source source) {
                requireRunning();
                transfer.copyIn(root, directory, source);
            }

            @Override
            public void copyOut(String root, String path, Sink sink) {
                requireRunning();
                transfer.copyOut(root, path, sink);
            }
        });
    }

    private void requireRunning() {
        if (sandbox.status() != SandboxStatus.RUNNING) {
            throw new NotMaterializedException(sandbox.id(), path);
        }
    }

    @Override
    public CommandResult executeCommand(String command, List<String> args, CommandOptions options) {
        requireRunning();
        return sandbox.executeCommand(command, args, options);
    }

    @Override
    public String id() {
        return sandbox.id();
    }

    @Override
    public String name() {
        return sandbox.name();
    }

    @Override
    public SandboxStatus status() {
        return sandbox.status();
    }

    @Override
    public void start() {
        throw new UnsupportedOperationException("A passive file view never starts a sandbox.");
    }

    @Override
    public void stop() {
        throw new UnsupportedOperationException("A passive file view never stops a sandbox.");
    }

    @Override
    public void destroy() {
        throw new UnsupportedOperationException("A passive file view never destroys a sandbox.");
    }

    @Override
    public Optional<String> workingDirectory() {
        return sandbox.workingDirectory();
    }
}
