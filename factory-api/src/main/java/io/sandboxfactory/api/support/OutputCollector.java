package io.sandboxfactory.api.support;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * Collects one output stream of a command for providers: forwards every chunk, decoded as UTF-8
 * without splitting characters, to an optional listener, and retains only the newest {@code
 * maxRetainedBytes} bytes so memory stays bounded whatever the command prints.
 *
 * <p>Thread-safe. A listener that throws is dropped (its first failure is kept in {@link
 * #listenerFailure()}) so a faulty callback cannot stall the command.
 *
 * @since 0.1.0
 */
public final class OutputCollector {

    private static final int BLOCK_BYTES = 64 * 1024;
    private static final int MIN_BLOCK_BYTES = 4 * 1024;

    private final long maxRetainedBytes;
    private Consumer<String> listener;
    private RuntimeException listenerFailure;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE)
            .onUnmappableCharacter(CodingErrorAction.REPLACE);
    private byte[] pending = new byte[0];

    /**
     * The retained bytes, oldest first, in blocks filled one after the other: the first from
     * {@code headOffset}, the last up to {@code tailFill}. Blocks, not one growing ring, so that a
     * command printing megabytes costs one copy of each byte, as reading its stream whole would.
     */
    private final ArrayDeque<byte[]> blocks = new ArrayDeque<>();
    private int headOffset;
    private int tailFill;
    private int size;
    private long total;

    public OutputCollector(long maxRetainedBytes, Optional<Consumer<String>> listener) {
        if (maxRetainedBytes < 0) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "maxRetainedBytes " + maxRetainedBytes + " is invalid; it must be at least 0.");
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
        byte[] ordered = ordered();
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
            blocks.clear();
            blocks.add(Arrays.copyOfRange(bytes, offset + length - keep, offset + length));
            headOffset = 0;
            tailFill = keep;
            size = keep;
            return;
        }
        int from = offset;
        int left = length;
        while (left > 0) {
            byte[] last = blocks.peekLast();
            if (last == null || tailFill == last.length) {
                last = new byte[Math.min(BLOCK_BYTES, Math.max(left, MIN_BLOCK_BYTES))];
                blocks.addLast(last);
                tailFill = 0;
            }
            int n = Math.min(left, last.length - tailFill);
            System.arraycopy(bytes, from, last, tailFill, n);
            tailFill += n;
            from += n;
            left -= n;
            size += n;
        }
        dropOldestBeyondCap();
    }

    private void dropOldestBeyondCap() {
        while (size > maxRetainedBytes) {
            byte[] first = blocks.peekFirst();
            int used = (blocks.size() == 1 ? tailFill : first.length) - headOffset;
            long excess = size - maxRetainedBytes;
            if (excess >= used) {
                blocks.pollFirst();
                size -= used;
                headOffset = 0;
            } else {
                headOffset += (int) excess;
                size -= (int) excess;
            }
        }
    }

    /** The retained bytes, oldest first, in a new array. */
    private byte[] ordered() {
        byte[] ordered = new byte[size];
        int at = 0;
        int index = 0;
        int count = blocks.size();
        for (byte[] block : blocks) {
            int from = index == 0 ? headOffset : 0;
            int to = index == count - 1 ? tailFill : block.length;
            System.arraycopy(block, from, ordered, at, to - from);
            at += to - from;
            index++;
        }
        return ordered;
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
