package io.sandboxfactory.core.files;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Content of a known length for transfers that must announce it first (a tar header): a stream
 * of unknown length is kept in memory up to a small limit, else spooled to a temporary file on
 * the host, which {@link #close()} deletes. Memory stays bounded by the limit.
 */
final class SpooledContent implements AutoCloseable {

    private final byte[] bytes;
    private final Path file;
    private final InputStream stream;
    private final long size;

    private SpooledContent(byte[] bytes, Path file, InputStream stream, long size) {
        this.bytes = bytes;
        this.file = file;
        this.stream = stream;
        this.size = size;
    }

    /** A stream whose length the caller knows; it can be opened once. */
    static SpooledContent known(InputStream content, long size) {
        return new SpooledContent(null, null, content, size);
    }

    static SpooledContent of(InputStream content, int memoryLimit) {
        try {
            byte[] head = content.readNBytes(memoryLimit);
            if (head.length < memoryLimit) {
                return new SpooledContent(head, null, null, head.length);
            }
            Path file = Files.createTempFile("sandbox-factory-", ".upload");
            try (OutputStream out = Files.newOutputStream(file)) {
                out.write(head);
                content.transferTo(out);
            } catch (IOException | RuntimeException e) {
                Files.deleteIfExists(file);
                throw e;
            }
            return new SpooledContent(null, file, null, Files.size(file));
        } catch (IOException e) {
            throw new UncheckedIOException("Could not read the content to write: " + e.getMessage(), e);
        }
    }

    long size() {
        return size;
    }

    InputStream open() throws IOException {
        if (stream != null) {
            return stream;
        }
        return file == null ? new ByteArrayInputStream(bytes) : Files.newInputStream(file);
    }

    @Override
    public void close() {
        if (file != null) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException ignored) {
                // A leftover file in the temporary directory is all that remains.
            }
        }
    }

    @Override
    public String toString() {
        return "SpooledContent[" + size + " bytes" + (file == null ? "" : " in " + file) + "]";
    }
}
