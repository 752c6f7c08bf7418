package io.sandboxfactory.api;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Collects one output stream of a command for providers: forwards every chunk, decoded as UTF-8
 * without splitting characters, to an optional listener, and retains only the newest {@code
 * maxRetainedBytes} bytes so memory stays bounded whatever the command prints.
 *
 * <p>Thread-safe. A listener that throws is dropped (its first failure is kept in {@link
 * #listenerFailure()}) so a faulty callback cannot stall the command.
 */
public final class OutputCollector {

    private final long maxRetainedBytes;
    private Consumer<String> listener;
    private RuntimeException listenerFailure;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    private byte[] pending = new byte[0];

    private byte[] ring = new byte[0];
    private int start;
    private int size;
    private long total;

    public OutputCollector(long maxRetainedBytes, Optional<Consumer<String>> listener) {
        if (maxRetainedBytes < 0) {
            throw new IllegalArgumentException("maxRetainedBytes " + maxRetainedBytes + " is invalid; it must be at least 0.");
        }
        this.maxRetainedBytes = maxRetainedBytes;
        this.listener = listener.orElse(null);
    }

    /** Takes the next bytes of the stream. */
    public synchronized void accept(byte[] bytes, int offset, int length) {
        if (length <= 0) {
            return;
        }
        total += length;
        retain(bytes, offset, length);
        if (listener != null) {
            byte[] input = new byte[pending.length + length];
            System.arraycopy(pending, 0, input, 0, pending.length);
            System.arraycopy(bytes, offset, input, pending.length, length);
            ByteBuffer in = ByteBuffer.wrap(input);
            CharBuffer out = CharBuffer.allocate(input.length + 1);
            decoder.decode(in, out, false);
            pending = new byte[in.remaining()];
            in.get(pending);
            emit(out);
        }
    }

    /** Flushes characters held back at a chunk boundary; call once when the stream ended. */
    public synchronized void finish() {
        if (listener != null) {
            CharBuffer out = CharBuffer.allocate(pending.length + 2);
            decoder.decode(ByteBuffer.wrap(pending), out, true);
            decoder.flush(out);
            pending = new byte[0];
            emit(out);
        }
    }

    /** The retained (newest) output as text. When truncated, starts at the first whole character. */
    public synchronized String text() {
        byte[] ordered = new byte[size];
        int capacity = ring.length;
        for (int i = 0; i < size; i++) {
            ordered[i] = ring[(start + i) % capacity];
        }
        int from = 0;
        if (truncated()) {
            while (from < ordered.length && from < 3 && (ordered[from] & 0xC0) == 0x80) {
                from++;
            }
        }
        return new String(ordered, from, ordered.length - from, StandardCharsets.UTF_8);
    }

    /** Whether older output was dropped to respect the cap. */
    public synchronized boolean truncated() {
        return total > size;
    }

    /** Every byte the stream produced, retained or not. */
    public synchronized long totalBytes() {
        return total;
    }

    public synchronized Optional<RuntimeException> listenerFailure() {
        return Optional.ofNullable(listenerFailure);
    }

    private void retain(byte[] bytes, int offset, int length) {
        if (maxRetainedBytes == 0) {
            return;
        }
        if (length >= maxRetainedBytes) {
            int keep = (int) maxRetainedBytes;
            ring = new byte[keep];
            System.arraycopy(bytes, offset + length - keep, ring, 0, keep);
            start = 0;
            size = keep;
            return;
        }
        if (ring.length < maxRetainedBytes && size + length > ring.length) {
            grow((int) Math.min(maxRetainedBytes, Math.max((long) ring.length * 2, (long) size + length)));
        }
        int capacity = ring.length;
        for (int i = 0; i < length; i++) {
            int pos = (start + size) % capacity;
            ring[pos] = bytes[offset + i];
            if (size < capacity) {
                size++;
            } else {
                start = (start + 1) % capacity;
            }
        }
    }

    private void grow(int capacity) {
        byte[] bigger = new byte[capacity];
        for (int i = 0; i < size; i++) {
            bigger[i] = ring[(start + i) % ring.length];
        }
        ring = bigger;
        start = 0;
    }

    private void emit(CharBuffer out) {
        out.flip();
        if (!out.hasRemaining() || listener == null) {
            return;
        }
        try {
            listener.accept(out.toString());
        } catch (RuntimeException e) {
            listenerFailure = e;
            listener = null;
        }
    }
}
