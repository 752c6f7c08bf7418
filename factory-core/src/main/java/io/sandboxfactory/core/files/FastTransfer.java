package io.sandboxfactory.core.files;

import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.files.PathOutsideRootException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.files.TransferEntry;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * File content through the provider's {@link FileTransferSandbox}. Paths are resolved with the
 * provider's {@link FileTransferSandbox#resolve} when it answers (no command at all), else with
 * the resolve script, and confined to the root here; content then moves on the canonical path. A
 * write goes to a temporary file beside the target and one command renames it over the target, so
 * it stays atomic.
 */
final class FastTransfer implements ContentTransfer {

    /** Streams of unknown length up to this size are kept in memory; longer ones are spooled to disk. */
    private static final int IN_MEMORY_LIMIT = 1024 * 1024;

    private final FileCommands commands;
    private final FileTransferSandbox transfer;

    FastTransfer(FileCommands commands, FileTransferSandbox transfer) {
        this.commands = commands;
        this.transfer = transfer;
    }

    @Override
    public Resolved resolve(String path) {
        Optional<FileTransferSandbox.Resolution> root = transfer.resolve(commands.root().path());
        if (root.isEmpty()) {
            return commands.resolve(path);
        }
        String shown = FileCommands.display(path);
        if (root.get().kind() != FileTransferSandbox.Kind.DIRECTORY) {
            throw new SandboxException(StandardErrorCode.ROOT_MISSING, "Cannot resolve '" + shown + "' in sandbox '" + commands.shell().sandboxId()
                    + "': the root " + commands.root() + " is not a directory in the sandbox.");
        }
        String canonicalRoot = root.get().path();
        FileTransferSandbox.Resolution target = path.isEmpty() ? root.get() : transfer.resolve(commands.absolute(path))
                .orElseThrow(() -> new IllegalStateException("The sandbox resolved the root but not '" + shown + "'."));
        boolean inside = canonicalRoot.equals("/") || target.path().equals(canonicalRoot) || target.path().startsWith(canonicalRoot + "/");
        if (!inside) {
            throw new PathOutsideRootException(shown, commands.root().path(), "it resolves to " + target.path() + " through a symbolic link");
        }
        return new Resolved(canonicalRoot, target.path(), kind(target.kind()));
    }

    static char kind(FileTransferSandbox.Kind kind) {
        return switch (kind) {
            case DIRECTORY -> 'd';
            case FILE -> 'f';
            case OTHER -> 'o';
            case MISSING -> 'm';
        };
    }

    @Override
    public void read(String path, OutputStream out) {
        read(transfer, resolve(path), path, out, commands.shell().sandboxId(), commands.root());
    }

    /** Streams the file {@code resolved} (from {@code path}) out of the sandbox through {@code transfer}. */
    static void read(FileTransferSandbox transfer, Resolved resolved, String path, OutputStream out, String sandboxId, SandboxRoot root) {
        String shown = FileCommands.display(path);
        if (!resolved.regularFile()) {
            throw notAFile(resolved, shown, "read", sandboxId, root);
        }
        boolean[] seen = {false};
        transfer.copyOut(resolved.root(), resolved.path(), (entry, content) -> {
            if (seen[0] || entry.type() != TransferEntry.Type.FILE) {
                throw changed(shown, sandboxId);
            }
            seen[0] = true;
            content.transferTo(out);
        });
        if (!seen[0]) {
            throw changed(shown, sandboxId);
        }
    }

    @Override
    public void write(String path, InputStream content, long size, String mode) {
        try (SpooledContent sized = size >= 0 ? SpooledContent.known(content, size) : SpooledContent.of(content, IN_MEMORY_LIMIT)) {
            write(path, sized, mode);
        }
    }

    private void write(String path, SpooledContent content, String mode) {
        Resolved target = resolve(path);
        if (target.directory()) {
            String shown = FileCommands.display(path);
            throw new SandboxFileException(StandardErrorCode.IS_A_DIRECTORY, shown, "Cannot write '" + shown + "' in sandbox '"
                    + commands.shell().sandboxId() + "': it is a directory.");
        }
        String token = Tokens.next();
        String directory = parentOf(target.path());
        Optional<FileTransferSandbox.Resolution> parent = transfer.resolve(directory);
        String temp;
        String root;
        if (parent.isPresent() && parent.get().kind() == FileTransferSandbox.Kind.DIRECTORY && parent.get().path().equals(directory)) {
            root = target.root();
            temp = (directory.equals("/") ? "/" : directory + "/") + ".sf-" + token;
        } else {
            // Missing parents: the prepare script creates them (and the temporary file) inside the root.
            FileCommands.PreparedWrite prepared = commands.prepareWrite(path, token, mode, Map.of(), false);
            root = prepared.root();
            temp = prepared.temp();
            directory = parentOf(temp);
        }
        try {
            TransferEntry entry = TransferEntry.file(temp.substring(temp.lastIndexOf('/') + 1), content.size(),
                    mode == null ? 0644 : Integer.parseInt(mode, 8));
            transfer.copyIn(root, directory, new FileTransferSandbox.Source() {
                @Override
                public List<TransferEntry> entries() {
                    return List.of(entry);
                }

                @Override
                public InputStream open(TransferEntry file) throws IOException {
                    return content.open();
                }
            });
            commands.finishWrite(path, token, mode, temp, Map.of());
        } catch (RuntimeException e) {
            commands.discardTemp(path, token, temp);
            throw e;
        }
    }

    private static String parentOf(String absolute) {
        int slash = absolute.lastIndexOf('/');
        return slash <= 0 ? "/" : absolute.substring(0, slash);
    }

    @Override
    public void copyIn(Resolved directory, String path, FileTransferSandbox.Source source) {
        transfer.copyIn(directory.root(), directory.path(), source);
    }

    @Override
    public void copyOut(Resolved source, String path, String name, TreeSink sink) {
        copyOut(transfer, source, name, sink);
    }

    /** Visits {@code source} through {@code transfer}, naming its first entry {@code name}. */
    static void copyOut(FileTransferSandbox transfer, Resolved source, String name, TreeSink sink) {
        String top = source.name();
        transfer.copyOut(source.root(), source.path(), (entry, content) -> {
            TransferEntry renamed = rename(entry, top, name);
            switch (renamed.type()) {
                case DIRECTORY -> sink.directory(renamed);
                case SYMLINK -> sink.symlink(renamed);
                case FILE -> sink.file(renamed, content::transferTo);
            }
        });
    }

    private static TransferEntry rename(TransferEntry entry, String from, String to) {
        if (entry.path().equals(from)) {
            return entry.withPath(to);
        }
        if (entry.path().startsWith(from + "/")) {
            return entry.withPath(to + entry.path().substring(from.length()));
        }
        throw new IllegalStateException("The provider sent entry '" + entry.path() + "' outside the copied tree '" + from + "'.");
    }

    private static SandboxFileException notAFile(Resolved resolved, String shown, String verb, String sandboxId, SandboxRoot root) {
        String where = "Cannot " + verb + " '" + shown + "' in sandbox '" + sandboxId + "': ";
        return switch (resolved.kind()) {
            case 'm' -> new SandboxFileException(StandardErrorCode.FILE_NOT_FOUND, shown, where + "it does not exist under the root "
                    + root + ".");
            case 'd' -> new SandboxFileException(StandardErrorCode.IS_A_DIRECTORY, shown, where + "it is a directory.");
            default -> new SandboxFileException(StandardErrorCode.NOT_A_REGULAR_FILE, shown, where + "it is not a regular file.");
        };
    }

    private static SandboxFileException changed(String shown, String sandboxId) {
        return new SandboxFileException(StandardErrorCode.FILE_CHANGED, shown, "Cannot read '" + shown + "' in sandbox '"
                + sandboxId + "': it changed while it was read.");
    }
}
