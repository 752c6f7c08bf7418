package io.sandboxfactory.core.files;

import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.files.TransferEntry;

import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/** A copy's source that counts the content read from it and reports progress. */
final class CountingSource implements FileTransferSandbox.Source {

    private final FileTransferSandbox.Source source;
    private final long totalBytes;
    private final TransferProgress progress;
    private long bytes;

    CountingSource(FileTransferSandbox.Source source, long totalBytes, TransferProgress progress) {
        this.source = source;
        this.totalBytes = totalBytes;
        this.progress = progress;
    }

    @Override
    public List<TransferEntry> entries() {
        return source.entries();
    }

    @Override
    public InputStream open(TransferEntry file) throws IOException {
        return new FilterInputStream(source.open(file)) {
            @Override
            public int read() throws IOException {
                int b = super.read();
                if (b >= 0) {
                    count(1);
                }
                return b;
            }

            @Override
            public int read(byte[] buffer, int off, int len) throws IOException {
                int n = super.read(buffer, off, len);
                if (n > 0) {
                    count(n);
                }
                return n;
            }
        };
    }

    private synchronized void count(long n) {
        bytes += n;
        progress.onProgress(bytes, totalBytes);
    }

    synchronized TransferSummary summary() {
        long files = 0;
        long directories = 0;
        long symlinks = 0;
        for (TransferEntry entry : source.entries()) {
            switch (entry.type()) {
                case FILE -> files++;
                case DIRECTORY -> directories++;
                case SYMLINK -> symlinks++;
            }
        }
        return new TransferSummary(files, directories, symlinks, bytes);
    }
}
