package io.sandboxfactory.core.files;

import io.sandboxfactory.api.FileTransferSandbox;
import io.sandboxfactory.api.SandboxFileException;
import io.sandboxfactory.api.TransferEntry;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * File content through the provider's {@link FileTransferSandbox}. Confinement stays with the
 * scripts: one command resolves and checks the path inside the sandbox, then the content moves
 * through the provider on the canonical path. A write goes to a temporary file beside the target
 * and a second command renames it over the target, so it stays atomic.
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
    public void read(String path, OutputStream out) {
        Resolved resolved = commands.resolve(path);
        String shown = FileCommands.display(path);
        if (!resolved.regularFile()) {
            throw notAFile(resolved, shown, "read");
        }
        boolean[] seen = {false};
        transfer.copyOut(resolved.root(), resolved.path(), (entry, content) -> {
            if (seen[0] || entry.type() != TransferEntry.Type.FILE) {
                throw changed(shown);
            }
            seen[0] = true;
            content.transferTo(out);
        });
        if (!seen[0]) {
            throw changed(shown);
        }
    }

    @Override
    public void write(String path, InputStream content, long size, String mode) {
        try (SpooledContent sized = size >= 0 ? SpooledContent.known(content, size) : SpooledContent.of(content, IN_MEMORY_LIMIT)) {
            write(path, sized, mode);
        }
    }

    void write(String path, SpooledContent content, String mode) {
        String token = Tokens.next();
        FileCommands.PreparedWrite prepared = commands.prepareWrite(path, token, mode, Map.of(), false);
        try {
            int slash = prepared.temp().lastIndexOf('/');
            String directory = slash == 0 ? "/" : prepared.temp().substring(0, slash);
            TransferEntry entry = TransferEntry.file(prepared.temp().substring(slash + 1), content.size(),
                    mode == null ? 0644 : Integer.parseInt(mode, 8));
            transfer.copyIn(prepared.root(), directory, new FileTransferSandbox.Source() {
                @Override
                public List<TransferEntry> entries() {
                    return List.of(entry);
                }

                @Override
                public InputStream open(TransferEntry file) throws IOException {
                    return content.open();
                }
            });
            commands.finishWrite(path, token, mode, prepared.temp(), Map.of());
        } catch (RuntimeException e) {
            commands.discardTemp(path, token, prepared.temp());
            throw e;
        }
    }

    @Override
    public void copyIn(Resolved directory, String path, FileTransferSandbox.Source source) {
        transfer.copyIn(directory.root(), directory.path(), source);
    }

    @Override
    public void copyOut(Resolved source, String path, String name, TreeSink sink) {
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

    private SandboxFileException notAFile(Resolved resolved, String shown, String verb) {
        String where = "Cannot " + verb + " '" + shown + "' in sandbox '" + commands.shell().sandboxId() + "': ";
        return switch (resolved.kind()) {
            case 'm' -> new SandboxFileException(SandboxFileException.NOT_FOUND, shown, where + "it does not exist under the root "
                    + commands.root() + ".");
            case 'd' -> new SandboxFileException(SandboxFileException.IS_A_DIRECTORY, shown, where + "it is a directory.");
            default -> new SandboxFileException(SandboxFileException.NOT_A_REGULAR_FILE, shown, where + "it is not a regular file.");
        };
    }

    private SandboxFileException changed(String shown) {
        return new SandboxFileException(SandboxFileException.CHANGED, shown, "Cannot read '" + shown + "' in sandbox '"
                + commands.shell().sandboxId() + "': it changed while it was read.");
    }
}
