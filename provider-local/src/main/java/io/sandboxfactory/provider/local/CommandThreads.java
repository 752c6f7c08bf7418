package io.sandboxfactory.provider.local;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads one configured local provider lends its commands: a pool for the output pumps and
 * one recorder thread that writes and deletes the running-commands records.
 *
 * <p>Why: starting two pump threads per command, and writing and deleting a record file on the
 * command's own thread, cost as much as the command {@code true} itself. Pool threads are reused
 * and, like the recorder, end after {@value #IDLE_SECONDS} s without work, so an idle factory
 * holds none.
 */
final class CommandThreads {

    private static final long IDLE_SECONDS = 30;

    private final ExecutorService pumps;
    private final ExecutorService recorder;

    CommandThreads() {
        this.pumps = new ThreadPoolExecutor(0, Integer.MAX_VALUE, IDLE_SECONDS, TimeUnit.SECONDS,
                new SynchronousQueue<>(), daemons("local-exec-pump"));
        ThreadPoolExecutor single = new ThreadPoolExecutor(1, 1, IDLE_SECONDS, TimeUnit.SECONDS,
                new LinkedBlockingQueue<>(), daemons("local-exec-recorder"));
        single.allowCoreThreadTimeOut(true);
        this.recorder = single;
    }

    /** Runs output pumps; a pump may block for as long as a background child holds its pipe. */
    ExecutorService pumps() {
        return pumps;
    }

    /** Runs record writes and deletes in the order they were submitted. */
    ExecutorService recorder() {
        return recorder;
    }

    private static ThreadFactory daemons(String name) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
