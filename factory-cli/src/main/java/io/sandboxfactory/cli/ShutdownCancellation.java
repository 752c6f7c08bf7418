package io.sandboxfactory.cli;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Lets a signal that ends this process (Ctrl-C, SIGTERM) cancel the command it runs, as the factory
 * daemon cancels a request whose client went away: the command's thread is interrupted, so the
 * provider kills what runs in the sandbox and {@code factory run} destroys its session, and the
 * process ends once the command has returned, or after {@link #GRACE} if it does not.
 */
final class ShutdownCancellation implements AutoCloseable {

    /** How long a signalled process waits for its command to clean up before it ends anyway. */
    static final Duration GRACE = Duration.ofMinutes(1);

    private final Thread worker;
    private final Thread hook;
    private final CountDownLatch returned = new CountDownLatch(1);
    private boolean done;
    private boolean cancelled;

    private ShutdownCancellation(Thread worker) {
        this.worker = worker;
        this.hook = new Thread(this::cancelAndAwaitReturn, "factory-shutdown");
    }

    /** Cancels what {@code worker} runs when this process is asked to end, until {@link #close()}. */
    static ShutdownCancellation install(Thread worker) {
        ShutdownCancellation cancellation = new ShutdownCancellation(worker);
        Runtime.getRuntime().addShutdownHook(cancellation.hook);
        return cancellation;
    }

    /** Whether a signal cancelled the command. */
    synchronized boolean cancelled() {
        return cancelled;
    }

    private void cancelAndAwaitReturn() {
        synchronized (this) {
            if (done) {
                return;
            }
            cancelled = true;
            worker.interrupt();
        }
        try {
            returned.await(GRACE.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The command has returned: a later signal ends the process at once. */
    @Override
    public void close() {
        synchronized (this) {
            done = true;
        }
        returned.countDown();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
            // The hook runs already; it returns now that the command has.
        }
    }
}
