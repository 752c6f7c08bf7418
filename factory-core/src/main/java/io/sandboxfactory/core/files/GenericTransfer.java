package io.sandboxfactory.core.files;

import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.files.TransferEntry;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * File content over plain {@code executeCommand}, so any provider that runs commands gets a working
 * filesystem. Reads are one command whose base64 output is decoded as it streams; writes go in
 * chunks (see {@link ChunkEncoder}) appended to a temporary file beside the target, which the last
 * command renames over it. Memory stays bounded by one chunk whatever the file size. The metadata
 * operations are one command each ({@link FileCommands}).
 */
final class GenericTransfer implements ContentTransfer, FileOperations {

    private final FileCommands commands;
    private final int chunkBytes;

    GenericTransfer(FileCommands commands, int chunkBytes) {
        this.commands = commands;
        this.chunkBytes = chunkBytes;
    }

    @Override
    public Resolved resolve(String path) {
        return commands.resolve(path);
    }

    @Override
    public void read(String path, OutputStream out) {
        Base64Sink sink = new Base64Sink(out);
        commands.shell().stream("read", FileCommands.display(path), List.of(commands.absolute(path)), sink, FileScripts.READ);
        try {
            sink.finish();
        } catch (IOException e) {
            throw new UncheckedIOException("Could not take the content of '" + FileCommands.display(path) + "': " + e.getMessage(), e);
        } catch (IllegalStateException e) {
            throw new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, FileCommands.display(path), "Cannot read '"
                    + FileCommands.display(path) + "' in sandbox '" + commands.shell().sandboxId() + "': " + e.getMessage() + ".");
        }
    }

    @Override
    public void write(String path, InputStream content, long size, String mode) {
        String token = Tokens.next();
        byte[] buffer = new byte[chunkBytes];
        int n = fill(content, buffer, path);
        if (n < chunkBytes) {
            commands.prepareWrite(path, token, mode, ChunkEncoder.encode(buffer, n), true);
            return;
        }
        FileCommands.PreparedWrite prepared = commands.prepareWrite(path, token, mode, ChunkEncoder.encode(buffer, n), false);
        try {
            while (true) {
                n = fill(content, buffer, path);
                if (n < chunkBytes) {
                    commands.finishWrite(path, token, mode, prepared.temp(), ChunkEncoder.encode(buffer, n));
                    return;
                }
                commands.appendToTemp(path, token, prepared.temp(), ChunkEncoder.encode(buffer, n));
            }
        } catch (RuntimeException e) {
            commands.discardTemp(path, token, prepared.temp());
            throw e;
        }
    }

    @Override
    public List<FileInfo> list(String path) {
        return commands.list(path);
    }

    @Override
    public FileInfo stat(String path) {
        return commands.stat(path);
    }

    @Override
    public Resolved mkdirs(String path) {
        return commands.mkdirs(path);
    }

    @Override
    public void delete(String path, boolean recursive) {
        commands.delete(path, recursive);
    }

    @Override
    public void move(String from, String to) {
        commands.move(from, to);
    }

    /** Appends {@code content} to the file at {@code path} (created with its parents when missing), chunk by chunk. */
    @Override
    public void append(String path, InputStream content) {
        byte[] buffer = new byte[chunkBytes];
        int n;
        do {
            n = fill(content, buffer, path);
            commands.append(path, ChunkEncoder.encode(buffer, n));
        } while (n == chunkBytes);
    }

    @Override
    public void copyIn(Resolved directory, String path, FileTransferSandbox.Source source) {
        for (TransferEntry entry : source.entries()) {
            String target = path.isEmpty() ? entry.path() : path + "/" + entry.path();
            switch (entry.type()) {
                case DIRECTORY -> commands.mkdirs(target);
                case SYMLINK -> commands.symlink(target, entry.linkTarget());
                case FILE -> {
                    try (InputStream in = source.open(entry)) {
                        write(target, in, entry.size(), Modes.octal(entry.mode()));
                    } catch (IOException e) {
                        throw new UncheckedIOException("Could not read '" + entry.path() + "' to copy it: " + e.getMessage(), e);
                    }
                }
            }
        }
    }

    @Override
    public void copyOut(Resolved source, String path, String name, TreeSink sink) {
        FileInfo top = commands.stat(path);
        try {
            if (source.directory()) {
                sink.directory(TransferEntry.directory(name, top.permissions()));
                walk(path, name, sink);
            } else {
                sink.file(TransferEntry.file(name, top.size(), top.permissions()), out -> read(path, out));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Could not write what was copied out of '" + FileCommands.display(path) + "': "
                    + e.getMessage(), e);
        }
    }

    private void walk(String directory, String prefix, TreeSink sink) throws IOException {
        for (FileInfo info : commands.list(directory)) {
            String child = directory.isEmpty() ? info.name() : directory + "/" + info.name();
            String entryPath = prefix + "/" + info.name();
            switch (info.type()) {
                case SYMLINK -> sink.symlink(TransferEntry.symlink(entryPath, commands.readlink(child)));
                case DIRECTORY -> {
                    sink.directory(TransferEntry.directory(entryPath, info.permissions()));
                    walk(child, entryPath, sink);
                }
                case FILE -> sink.file(TransferEntry.file(entryPath, info.size(), info.permissions()), out -> read(child, out));
                case OTHER -> {
                    // Devices, sockets and FIFOs have no content to copy; docker cp skips them too.
                }
            }
        }
    }

    private static int fill(InputStream content, byte[] buffer, String path) {
        try {
            return content.readNBytes(buffer, 0, buffer.length);
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the content to write to '" + FileCommands.display(path) + "': "
                    + e.getMessage(), e);
        }
    }
}
