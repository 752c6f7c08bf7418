package io.sandboxfactory.provider.kubernetes;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Passes a stream through, except a stream that is exactly {@code signal}: it holds back bytes
 * while they could still be the signal, so the wrapper's missing-directory signal never reaches
 * the caller's stderr callback.
 */
final class SignalFilter extends OutputStream {

    private final OutputStream out;
    private final byte[] signal;
    private byte[] held = new byte[0];
    private boolean passing;

    SignalFilter(OutputStream out, String signal) {
        this.out = out;
        this.signal = signal.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) throws IOException {
        if (passing) {
            out.write(b, off, len);
            return;
        }
        byte[] joined = Arrays.copyOf(held, held.length + len);
        System.arraycopy(b, off, joined, held.length, len);
        if (joined.length <= signal.length && Arrays.equals(joined, 0, joined.length, signal, 0, joined.length)) {
            held = joined;
            return;
        }
        passing = true;
        held = new byte[0];
        out.write(joined, 0, joined.length);
    }

    /** Whether the whole stream so far is the signal. */
    synchronized boolean sawSignal() {
        return !passing && held.length == signal.length;
    }

    /** Releases bytes held back that turned out not to be the signal. */
    synchronized void finish() throws IOException {
        if (!passing && held.length > 0 && held.length < signal.length) {
            out.write(held, 0, held.length);
            held = new byte[0];
        }
    }
}
