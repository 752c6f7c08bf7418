package io.sandboxfactory.core.files;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.function.Consumer;

/**
 * Takes the streamed output of {@link FileScripts#READ} (a size line, then base64 text in chunks
 * of any length) and writes the decoded bytes to an output stream as they arrive, holding at most
 * one small buffer. A failure of the output stream is kept and stops further writes; the caller
 * checks {@link #finish()} after the command.
 */
final class Base64Sink implements Consumer<String> {

    private static final int BUFFER = 64 * 1024;

    private final OutputStream out;
    private final StringBuilder header = new StringBuilder();
    private boolean headerDone;
    private long expected = -1;
    private final byte[] pending = new byte[BUFFER];
    private int pendingLength;
    private long written;
    private IOException failure;
    private IllegalStateException malformed;

    Base64Sink(OutputStream out) {
        this.out = out;
    }

    @Override
    public void accept(String chunk) {
        int i = 0;
        if (!headerDone) {
            int newline = chunk.indexOf('\n');
            if (newline < 0) {
                header.append(chunk);
                return;
            }
            header.append(chunk, 0, newline);
            headerDone = true;
            try {
                expected = Long.parseLong(header.toString().strip());
            } catch (NumberFormatException e) {
                malformed = new IllegalStateException("the size line '" + header + "' is not a number");
            }
            i = newline + 1;
        }
        for (; i < chunk.length(); i++) {
            char c = chunk.charAt(i);
            if (c == '\n' || c == '\r' || c == ' ') {
                continue;
            }
            pending[pendingLength++] = (byte) c;
            if (pendingLength == pending.length) {
                flush();
            }
        }
    }

    private void flush() {
        int usable = pendingLength - pendingLength % 4;
        if (usable == 0) {
            return;
        }
        if (failure == null && malformed == null) {
            try {
                ByteBuffer decoded = Base64.getDecoder().decode(ByteBuffer.wrap(pending, 0, usable));
                out.write(decoded.array(), decoded.arrayOffset() + decoded.position(), decoded.remaining());
                written += decoded.remaining();
            } catch (IOException e) {
                failure = e;
            } catch (IllegalArgumentException e) {
                malformed = new IllegalStateException("the content is not valid base64: " + e.getMessage());
            }
        }
        System.arraycopy(pending, usable, pending, 0, pendingLength - usable);
        pendingLength -= usable;
    }

    /**
     * Decodes what is left; returns the bytes written. Throws the output stream's failure, or
     * {@link IllegalStateException} when the output was malformed or shorter or longer than announced.
     */
    long finish() throws IOException {
        flush();
        if (failure != null) {
            throw failure;
        }
        if (malformed != null) {
            throw malformed;
        }
        if (pendingLength != 0) {
            throw new IllegalStateException("the content ends with " + pendingLength + " stray base64 characters");
        }
        if (!headerDone) {
            throw new IllegalStateException("the output ended before the size line");
        }
        if (written != expected) {
            throw new IllegalStateException("it announced " + expected + " bytes but sent " + written
                    + " (did the file change while it was read?)");
        }
        return written;
    }
}
