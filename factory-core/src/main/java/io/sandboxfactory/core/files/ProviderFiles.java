package io.sandboxfactory.core.files;

import io.sandboxfactory.api.files.FileOperationsSandbox;
import io.sandboxfactory.api.files.FileTransferSandbox;

import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A session filesystem whose provider performs every operation itself ({@link
 * FileOperationsSandbox}): no file command runs. The provider resolves each path from the root
 * without following links out of it, so a process swapping a directory for a link meanwhile
 * cannot lead an operation outside the root; the write is atomic on the provider's side.
 */
final class ProviderFiles implements ContentTransfer, FileOperations {

    private final FileOperationsSandbox sandbox;
    private final SandboxRoot root;
    private final String sandboxId;

    ProviderFiles(FileOperationsSandbox sandbox, SandboxRoot root, String sandboxId) {
        this.sandbox = sandbox;
        this.root = root;
        this.sandboxId = sandboxId;
    }

    @Override
    public Resolved resolve(String path) {
        FileTransferSandbox.Resolution target = sandbox.resolve(root.path(), path);
        String canonicalRoot = path.isEmpty() ? target.path() : sandbox.resolve(root.path(), "").path();
        return new Resolved(canonicalRoot, target.path(), FastTransfer.kind(target.kind()));
    }

    @Override
    public void read(String path, OutputStream out) {
        FastTransfer.read(sandbox, resolve(path), path, out, sandboxId, root);
    }

    @Override
    public void write(String path, InputStream content, long size, String mode) {
        sandbox.write(root.path(), path, content, mode == null ? -1 : Integer.parseInt(mode, 8));
    }

    @Override
    public void copyIn(Resolved directory, String path, FileTransferSandbox.Source source) {
        sandbox.copyIn(directory.root(), directory.path(), source);
    }

    @Override
    public void copyOut(Resolved source, String path, String name, TreeSink sink) {
        FastTransfer.copyOut(sandbox, source, name, sink);
    }

    @Override
    public List<FileInfo> list(String path) {
        List<FileInfo> entries = new ArrayList<>();
        for (FileOperationsSandbox.FileStat stat : sandbox.list(root.path(), path)) {
            entries.add(info(stat));
        }
        entries.sort(Comparator.comparing(FileInfo::name));
        return entries;
    }

    @Override
    public FileInfo stat(String path) {
        return info(sandbox.stat(root.path(), path));
    }

    private static FileInfo info(FileOperationsSandbox.FileStat stat) {
        return new FileInfo(stat.name(), FileType.ofMode(stat.mode()), stat.size(), stat.modified(), stat.mode() & 07777);
    }

    @Override
    public Resolved mkdirs(String path) {
        FileTransferSandbox.Resolution made = sandbox.mkdirs(root.path(), path);
        return new Resolved(sandbox.resolve(root.path(), "").path(), made.path(), 'd');
    }

    @Override
    public void delete(String path, boolean recursive) {
        sandbox.delete(root.path(), path, recursive);
    }

    @Override
    public void move(String from, String to) {
        sandbox.move(root.path(), from, to);
    }

    @Override
    public void append(String path, InputStream content) {
        sandbox.append(root.path(), path, content);
    }
}
