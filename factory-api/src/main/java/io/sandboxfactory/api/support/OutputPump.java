package io.sandboxfactory.api.support;

import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * Copies one output stream of a command into its collector on a thread of the given executor
 * until the stream ends or the command is over ({@link #detach()}): a background child may hold
 * the pipe open for hours, and its later output must neither reach the caller's callbacks after
 * the command returned nor keep the result waiting. The stream is closed at its next read after
 * the detach, so a later write to it fails or raises SIGPIPE.
 *
 * @since 0.1.0
 */
public final class OutputPump {

    /** Opens the stream; may block (a FIFO opens when its writer does). */
    @FunctionalInterface
    public interface Opener {
        InputStream open() throws IOException;
    }

    /** A Linux pipe holds 64 KiB: one read can take all a fast writer left in it. */
    private static final int BUFFER_BYTES = 64 * 1024;

    private final Object gate = new Object();
    private final OutputCollector sink;
    private final CountDownLatch ended = new CountDownLatch(1);
    private boolean detached;

    private OutputPump(OutputCollector sink) {
        this.sink = sink;
    }

    /** Starts copying {@code stream} into {@code sink} on a thread of {@code pumps}, which may block as long as the stream is open. */
    public static OutputPump start(Opener stream, OutputCollector sink, Executor pumps) {
        OutputPump pump = new OutputPump(sink);
        pumps.execute(() -> pump.copy(stream));
        return pump;
    }

    private void copy(Opener stream) {
        byte[] buffer = new byte[BUFFER_BYTES];
        try (InputStream in = stream.open()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                synchronized (gate) {
                    if (detached) {
                        return;
                    }
                    sink.accept(buffer, 0, n);
                }
            }
        } catch (IOException ignored) {
            // The pipe closed under us (process killed); what was read is kept.
        } finally {
            ended.countDown();
        }
    }

    /** Waits until the stream ended, or until the deadline ({@link System#nanoTime()}). */
    public void awaitEnd(long deadlineNanos) throws InterruptedException {
        long remaining = deadlineNanos - System.nanoTime();
        if (remaining > 0) {
            ended.await(remaining, TimeUnit.NANOSECONDS);
        }
    }

    /** After this returns the collector receives nothing more from this pump. */
    public void detach() {
        synchronized (gate) {
            detached = true;
        }
    }
}
