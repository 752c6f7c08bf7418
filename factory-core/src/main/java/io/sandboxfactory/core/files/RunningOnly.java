package io.sandboxfactory.core.files;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.ExecutableSandbox;
import io.sandboxfactory.api.files.FileOperationsSandbox;
import io.sandboxfactory.api.files.FileTransferSandbox;
import java.io.InputStream;
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

    /** The sandbox's fast path, guarded the same way, when it has one (with its own file operations when it has them). */
    Optional<FileTransferSandbox> fastPath() {
        if (sandbox instanceof FileOperationsSandbox operations) {
            return Optional.of(new GuardedOperations(operations));
        }
        if (!(sandbox instanceof FileTransferSandbox transfer)) {
            return Optional.empty();
        }
        return Optional.of(new GuardedTransfer(transfer));
    }

    private class GuardedTransfer implements FileTransferSandbox {
        private final FileTransferSandbox transfer;

        GuardedTransfer(FileTransferSandbox transfer) {
            this.transfer = transfer;
        }

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
    }

    private final class GuardedOperations extends GuardedTransfer implements FileOperationsSandbox {
        private final FileOperationsSandbox operations;

        GuardedOperations(FileOperationsSandbox operations) {
            super(operations);
            this.operations = operations;
        }

        @Override
        public Resolution resolve(String root, String path) {
            requireRunning();
            return operations.resolve(root, path);
        }

        @Override
        public List<FileStat> list(String root, String path) {
            requireRunning();
            return operations.list(root, path);
        }

        @Override
        public FileStat stat(String root, String path) {
            requireRunning();
            return operations.stat(root, path);
        }

        @Override
        public Resolution mkdirs(String root, String path) {
            requireRunning();
            return operations.mkdirs(root, path);
        }

        @Override
        public void delete(String root, String path, boolean recursive) {
            requireRunning();
            operations.delete(root, path, recursive);
        }

        @Override
        public void move(String root, String from, String to) {
            requireRunning();
            operations.move(root, from, to);
        }

        @Override
        public void write(String root, String path, InputStream content, int mode) {
            requireRunning();
            operations.write(root, path, content, mode);
        }

        @Override
        public void append(String root, String path, InputStream content) {
            requireRunning();
            operations.append(root, path, content);
        }
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
