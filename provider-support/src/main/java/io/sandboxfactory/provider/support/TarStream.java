package io.sandboxfactory.provider.support;

import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.CopyLinks;
import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.api.files.TransferEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;
import org.apache.commons.compress.archivers.tar.TarConstants;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;

/**
 * The entries of a {@link FileTransferSandbox.Source} as a tar stream, produced as it is read: one
 * header or one piece of content at a time, so memory stays bounded (a few blocks) whatever the
 * sizes, and no thread is needed. Names and link targets of any length or script go in POSIX (PAX)
 * records; sizes over 8 GiB too.
 *
 * <p>Refuses an entry below a symbolic link the same stream carries ({@link CopyLinks}): whatever unpacks the stream
 * (a container engine, {@code tar} in a pod) would otherwise write through that link.
 */
public final class TarStream extends InputStream {

    private static final int PIECE = 64 * 1024;

    /** The tar writer's output, drained by {@link #read}. */
    private static final class Buffer extends ByteArrayOutputStream {
        byte[] bytes() {
            return buf;
        }

        int length() {
            return count;
        }
    }

    private final FileTransferSandbox.Source source;
    private final Iterator<TransferEntry> entries;
    private final Buffer buffer = new Buffer();
    private final TarArchiveOutputStream tar;
    private final CopyLinks links = new CopyLinks();
    private final byte[] piece = new byte[PIECE];
    private final long modified = System.currentTimeMillis();
    private TransferEntry current;
    private InputStream content;
    private long remaining;
    private boolean finished;
    private int position;
    private RuntimeException failure;
    private final int uid;
    private final int gid;

    /**
     * Entries owned by {@code uid} and {@code gid} (0 and 0 for root): an engine that extracts as
     * root keeps the owner a header names, so the files belong to a non-root user of the sandbox.
     */
    public TarStream(FileTransferSandbox.Source source, int uid, int gid) {
        this.uid = uid;
        this.gid = gid;
        this.source = source;
        this.entries = source.entries().iterator();
        this.tar = new TarArchiveOutputStream(buffer, StandardCharsets.UTF_8.name());
        tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
        tar.setBigNumberMode(TarArchiveOutputStream.BIGNUMBER_POSIX);
        tar.setAddPaxHeadersForNonAsciiNames(true);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        while (position == buffer.length()) {
            buffer.reset();
            position = 0;
            try {
                if (!produce()) {
                    return -1;
                }
            } catch (RuntimeException e) {
                // The HTTP client only expects IOExceptions from a request body; the cause is kept for the caller.
                failure = e;
                throw new IOException("The files to copy could not be read: " + e.getMessage(), e);
            }
        }
        int n = Math.min(len, buffer.length() - position);
        System.arraycopy(buffer.bytes(), position, b, off, n);
        position += n;
        return n;
    }

    /** Writes the next header, piece of content or the end into the buffer; false when all is written. */
    private boolean produce() throws IOException {
        if (content != null) {
            int n = readContent((int) Math.min(piece.length, remaining));
            tar.write(piece, 0, n);
            remaining -= n;
            if (remaining == 0) {
                content.close();
                content = null;
                tar.closeArchiveEntry();
            }
            return true;
        }
        if (entries.hasNext()) {
            begin(entries.next());
            return true;
        }
        if (!finished) {
            tar.finish();
            finished = true;
            return true;
        }
        return false;
    }

    private void begin(TransferEntry entry) throws IOException {
        links.check(entry);
        current = entry;
        TarArchiveEntry header;
        switch (entry.type()) {
            case DIRECTORY -> {
                header = new TarArchiveEntry(entry.path() + "/", TarConstants.LF_DIR);
                header.setMode(TarArchiveEntry.DEFAULT_DIR_MODE & ~07777 | entry.mode());
            }
            case SYMLINK -> {
                header = new TarArchiveEntry(entry.path(), TarConstants.LF_SYMLINK);
                header.setLinkName(entry.linkTarget());
            }
            default -> {
                header = new TarArchiveEntry(entry.path(), TarConstants.LF_NORMAL);
                header.setMode(TarArchiveEntry.DEFAULT_FILE_MODE & ~07777 | entry.mode());
                header.setSize(entry.size());
            }
        }
        header.setModTime(modified);
        header.setUserId(uid);
        header.setGroupId(gid);
        tar.putArchiveEntry(header);
        if (entry.type() == TransferEntry.Type.FILE && entry.size() > 0) {
            try {
                content = source.open(entry);
            } catch (IOException e) {
                throw new UncheckedIOException("Could not open the content of '" + entry.path() + "': " + e.getMessage(), e);
            }
            remaining = entry.size();
        } else {
            tar.closeArchiveEntry();
        }
    }

    private int readContent(int max) {
        try {
            int n = content.read(piece, 0, max);
            if (n < 0) {
                throw new SandboxFileException(StandardErrorCode.FILE_OPERATION_FAILED, current.path(), "Cannot copy '" + current.path()
                        + "': its content ended " + remaining + " bytes before its announced size " + current.size() + ".");
            }
            return n;
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the content of '" + current.path() + "': " + e.getMessage(), e);
        }
    }

    /** Why reading the source failed, if it did: the real reason behind a failed upload. */
    public java.util.Optional<RuntimeException> failure() {
        return java.util.Optional.ofNullable(failure);
    }

    @Override
    public void close() throws IOException {
        if (content != null) {
            content.close();
            content = null;
        }
    }
}
