package io.sandboxfactory.provider.docker;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayDeque;

/**
 * Bytes queued by {@link #offer}, read in order: the stdin of an exec (the {@link ExecChannel}'s
 * requests, read by the engine connection's writer thread), or a stream's output frames ({@link
 * ContainerStreams}). Counts what was offered and what was taken so a failure can
 * tell whether a request left this process. Ends (returns -1) when closed, or once finished and
 * read to its end; until then a read
 * waits, so a feed that is never offered anything is a lifeline: the exec's stdin stays open for as
 * long as this process holds it (see {@link io.sandboxfactory.provider.support.CommandScripts#WATCHED_RUN_SCRIPT}).
 */
final class RequestFeed extends InputStream {
    private final ArrayDeque<byte[]> queue = new ArrayDeque<>();
    private byte[] head;
    private int headOffset;
    private long offered;
    private long taken;
    private boolean closed;
    private boolean finished;

    synchronized void offer(byte[] bytes) {
        queue.add(bytes);
        offered += bytes.length;
        notifyAll();
    }

    synchronized long offered() {
        return offered;
    }

    synchronized long taken() {
        return taken;
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public synchronized int read(byte[] buffer, int offset, int length) throws IOException {
        if (length == 0) {
            return 0;
        }
        while (!closed && !finished && head == null && queue.isEmpty()) {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("Interrupted while waiting for a request.", e);
            }
        }
        if (closed || (head == null && queue.isEmpty())) {
            return -1;
        }
        if (head == null) {
            head = queue.poll();
            headOffset = 0;
        }
        int n = Math.min(length, head.length - headOffset);
        System.arraycopy(head, headOffset, buffer, offset, n);
        headOffset += n;
        taken += n;
        if (headOffset == head.length) {
            head = null;
        }
        return n;
    }

    /** Ends the feed once what was offered has been read (where {@link #close} drops it). */
    synchronized void finish() {
        finished = true;
        notifyAll();
    }

    @Override
    public synchronized void close() {
        closed = true;
        notifyAll();
    }
}
