package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.async.ResultCallback;
import com.github.dockerjava.api.model.Frame;
import io.sandboxfactory.api.support.OutputCollector;

import java.io.Closeable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * Receives the demultiplexed output of one exec ({@code Tty=false}) and feeds stdout and stderr
 * frames, in the order the engine sent them, to their collectors, except the wrapper's signal for a
 * missing working directory ({@link io.sandboxfactory.provider.support.CommandScripts#missingDirectorySignal}). Once {@link #close()}d (a
 * timeout or interrupt gave up on the stream) it drops late frames and errors, so the result
 * reflects what was read up to then.
 */
final class ExecStream implements ResultCallback<Frame> {

    private final OutputCollector stdout;
    private final OutputCollector stderr;
    private final byte[] missingDirectorySignal;
    private boolean sawStderr;
    private volatile boolean missingDirectory;
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile Closeable upstream;
    private volatile Throwable failure;
    private volatile boolean abandoned;

    /**
     * @param missingDirectorySignal what the wrapper writes as the first stderr frame when the
     *     working directory is missing; kept from the collector and reported by {@link
     *     #missingDirectory()}
     */
    ExecStream(OutputCollector stdout, OutputCollector stderr, String missingDirectorySignal) {
        this.stdout = stdout;
        this.stderr = stderr;
        this.missingDirectorySignal = missingDirectorySignal.getBytes(StandardCharsets.UTF_8);
    }

    @Override
    public void onStart(Closeable closeable) {
        upstream = closeable;
        if (abandoned) {
            closeQuietly(closeable);
        }
    }

    @Override
    public void onNext(Frame frame) {
        if (abandoned || frame == null || frame.getPayload() == null) {
            return;
        }
        byte[] payload = frame.getPayload();
        switch (frame.getStreamType()) {
            case STDOUT, RAW -> stdout.accept(payload, 0, payload.length);
            case STDERR -> {
                boolean first = !sawStderr;
                sawStderr = true;
                if (first && Arrays.equals(payload, missingDirectorySignal)) {
                    missingDirectory = true;
                } else {
                    stderr.accept(payload, 0, payload.length);
                }
            }
            default -> {
                // STDIN frames are never sent for an exec without stdin.
            }
        }
    }

    @Override
    public void onError(Throwable throwable) {
        if (!abandoned) {
            failure = throwable;
        }
        done.countDown();
    }

    @Override
    public void onComplete() {
        done.countDown();
    }

    /** Waits for the stream to end; returns false when {@code timeout} passed first. Empty waits forever. */
    boolean await(Optional<Duration> timeout) throws InterruptedException {
        return Latches.await(done, timeout);
    }

    /** Whether the wrapper reported that the working directory does not exist (the command never ran). */
    boolean missingDirectory() {
        return missingDirectory;
    }

    /** The error that ended the stream, if it did not end normally. */
    Optional<Throwable> failure() {
        return Optional.ofNullable(failure);
    }

    /** Gives up on the stream: closes the connection and ignores whatever still arrives. */
    @Override
    public void close() {
        abandoned = true;
        Closeable c = upstream;
        if (c != null) {
            closeQuietly(c);
        }
        done.countDown();
    }

    /** Closes an exec's connection that is being dropped on purpose. */
    static void closeQuietly(Closeable closeable) {
        try {
            closeable.close();
        } catch (IOException | RuntimeException ignored) {
            // The connection is being dropped on purpose; a failure to close it changes nothing.
        }
    }
}
