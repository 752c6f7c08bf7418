package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.support.OutputCollector;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * The reply of the channel server to one request (see {@link ChannelProtocol}): takes the server's
 * stdout and stderr bytes as they arrive, passes the command's own bytes to its collectors at once
 * (holding back only a tail that could be the start of the terminator), and completes when both
 * streams reached the terminator and stdout carried the exit status after it. Like {@link
 * ExecStream} it keeps the wrapper's missing-directory signal from the stderr collector. Once
 * {@link #abandon()}ed or {@link #fail}ed it ignores whatever still arrives.
 */
final class ChannelReply {

    private final TerminatedStream stdout;
    private final TerminatedStream stderr;
    private final SignalFilter stderrFilter;
    private final ByteArrayOutputStream status = new ByteArrayOutputStream();
    private final CountDownLatch done = new CountDownLatch(1);
    private Integer exitCode;
    private volatile Throwable failure;
    private volatile boolean abandoned;

    ChannelReply(String nonce, String missingDirectorySignal, OutputCollector stdout, OutputCollector stderr) {
        byte[] terminator = ChannelProtocol.terminator(nonce);
        this.stdout = new TerminatedStream(terminator, stdout::accept);
        this.stderrFilter = new SignalFilter(missingDirectorySignal.getBytes(StandardCharsets.UTF_8), stderr);
        this.stderr = new TerminatedStream(terminator, stderrFilter::accept);
    }

    /** Takes bytes the server wrote on stdout; false when they cannot belong to this reply (the server misbehaved). */
    synchronized boolean onStdout(byte[] bytes) {
        if (abandoned || exitCode != null) {
            return abandoned;
        }
        byte[] rest = stdout.ended() ? bytes : stdout.accept(bytes);
        if (rest == null) {
            return true;
        }
        for (byte b : rest) {
            if (exitCode != null) {
                return false;
            }
            if (b == '\n') {
                String text = status.toString(StandardCharsets.US_ASCII);
                try {
                    exitCode = Integer.parseInt(text);
                } catch (NumberFormatException e) {
                    return false;
                }
            } else {
                status.write(b);
            }
        }
        completeIfDone();
        return true;
    }

    /** Takes bytes the server wrote on stderr; false when they cannot belong to this reply. */
    synchronized boolean onStderr(byte[] bytes) {
        if (abandoned) {
            return true;
        }
        if (stderr.ended()) {
            return false;
        }
        byte[] rest = stderr.accept(bytes);
        if (rest != null) {
            stderrFilter.finish();
            if (rest.length > 0) {
                return false;
            }
            completeIfDone();
        }
        return true;
    }

    private void completeIfDone() {
        if (exitCode != null && stderr.ended()) {
            done.countDown();
        }
    }

    /**
     * The channel broke; a reply that is already complete stays complete, and the first cause
     * stays (closing the broken channel fails the reply again, with a cause that explains nothing).
     */
    synchronized void fail(Throwable cause) {
        if (!abandoned && failure == null && !(exitCode != null && stderr.ended())) {
            failure = cause;
        }
        done.countDown();
    }

    /** Stops taking output: what arrives later is dropped. */
    void abandon() {
        abandoned = true;
        done.countDown();
    }

    /** Waits for the reply (or a failure); false when {@code timeout} passed first. Empty waits forever. */
    boolean await(Optional<Duration> timeout) throws InterruptedException {
        return Latches.await(done, timeout);
    }

    /** The error that broke the channel before the reply completed. */
    Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    /** The command's exit status, once the reply is complete. */
    synchronized Optional<Integer> exitCode() {
        return Optional.ofNullable(exitCode);
    }

    /** Whether the wrapper reported that the working directory does not exist (the command never ran). */
    synchronized boolean missingDirectory() {
        return stderrFilter.matched();
    }

    /** Where the bytes of one stream go. */
    @FunctionalInterface
    interface Sink {
        void accept(byte[] bytes, int offset, int length);
    }

    /**
     * One stream of the reply up to its terminator. Bytes that may be the start of the terminator
     * wait for the next chunk; all others go to the sink as they arrive.
     */
    static final class TerminatedStream {
        private final byte[] terminator;
        private final Sink sink;
        private byte[] held = new byte[0];
        private boolean ended;

        TerminatedStream(byte[] terminator, Sink sink) {
            this.terminator = terminator;
            this.sink = sink;
        }

        /** Takes the next bytes; once the terminator is found, returns the bytes after it, else null. */
        byte[] accept(byte[] bytes) {
            byte[] buffer = held.length == 0 ? bytes : concat(held, bytes);
            int at = indexOf(buffer, terminator);
            if (at >= 0) {
                sink.accept(buffer, 0, at);
                held = new byte[0];
                ended = true;
                return Arrays.copyOfRange(buffer, at + terminator.length, buffer.length);
            }
            int keep = partialTerminatorAtEnd(buffer);
            sink.accept(buffer, 0, buffer.length - keep);
            held = Arrays.copyOfRange(buffer, buffer.length - keep, buffer.length);
            return null;
        }

        boolean ended() {
            return ended;
        }

        private int indexOf(byte[] buffer, byte[] pattern) {
            outer:
            for (int i = 0; i <= buffer.length - pattern.length; i++) {
                if (buffer[i] != pattern[0]) {
                    continue;
                }
                for (int j = 1; j < pattern.length; j++) {
                    if (buffer[i + j] != pattern[j]) {
                        continue outer;
                    }
                }
                return i;
            }
            return -1;
        }

        /** The length of the longest end of {@code buffer} that is a proper start of the terminator. */
        private int partialTerminatorAtEnd(byte[] buffer) {
            for (int keep = Math.min(terminator.length - 1, buffer.length); keep > 0; keep--) {
                if (Arrays.equals(buffer, buffer.length - keep, buffer.length, terminator, 0, keep)) {
                    return keep;
                }
            }
            return 0;
        }

        private static byte[] concat(byte[] a, byte[] b) {
            byte[] joined = Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, joined, a.length, b.length);
            return joined;
        }
    }

    /**
     * Keeps the missing-directory signal from the collector: holds stderr while everything so far is
     * a start of the signal, and reports a match when stderr was exactly the signal.
     */
    static final class SignalFilter {
        private final byte[] signal;
        private final OutputCollector collector;
        private final ByteArrayOutputStream held = new ByteArrayOutputStream();
        private boolean passing;
        private boolean matched;

        SignalFilter(byte[] signal, OutputCollector collector) {
            this.signal = signal;
            this.collector = collector;
        }

        void accept(byte[] bytes, int offset, int length) {
            if (length == 0) {
                return;
            }
            if (!passing) {
                held.write(bytes, offset, length);
                byte[] sofar = held.toByteArray();
                if (sofar.length <= signal.length && Arrays.equals(sofar, 0, sofar.length, signal, 0, sofar.length)) {
                    return;
                }
                passing = true;
                collector.accept(sofar, 0, sofar.length);
                return;
            }
            collector.accept(bytes, offset, length);
        }

        /** The stream ended: a held start of the signal that is not all of it was output after all. */
        void finish() {
            if (passing) {
                return;
            }
            byte[] sofar = held.toByteArray();
            if (Arrays.equals(sofar, signal)) {
                matched = true;
            } else {
                collector.accept(sofar, 0, sofar.length);
            }
            passing = true;
        }

        boolean matched() {
            return matched;
        }
    }
}
