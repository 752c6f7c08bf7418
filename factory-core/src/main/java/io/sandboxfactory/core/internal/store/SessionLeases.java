package io.sandboxfactory.core.internal.store;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.config.DurationFormat;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.store.api.Fence;
import io.sandboxfactory.store.api.FencedOutException;
import io.sandboxfactory.store.api.LeaseAttempt;
import io.sandboxfactory.store.api.LeaseOwner;
import io.sandboxfactory.store.api.SessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Holds per-session leases in a {@link SessionStore} for one owner (one factory), so two processes
 * — or two factories in one process — never open the same session at the same time. {@link
 * #acquire} waits until the lease is free, then keeps it alive with a heartbeat until the last
 * holder in this owner closes it; a crashed owner's lease frees within one {@code ttl}.
 *
 * <p>Within one owner the lease is normally <em>shared</em> (counted), because threads of one
 * factory already coordinate through the session memo and the sandbox's single-flight start. A
 * retirement takes it {@link #acquireExclusive exclusively}: it waits until no thread of this owner
 * holds it, and while it holds it new shares wait (a sharer may give up meanwhile, see {@link
 * #acquire(String, Consumer, Runnable)}). Shares still join one another while an exclusive holder
 * only waits, so a start that joins another thread's start can never deadlock with a retirement.
 */
public final class SessionLeases implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SessionLeases.class);

    /** One session's lease while this owner holds it. Closing it gives this holder's share back. */
    public interface Lease extends AutoCloseable {
        /**
         * The fence of the store acquisition this share belongs to: the writes that matter carry
         * it, so they are refused once another owner has taken the lease over.
         */
        Fence fence();

        @Override
        void close();
    }

    private final SessionStore store;
    private final LeaseOwner owner;
    private final Duration ttl;
    private final Duration pollInterval;
    private final ScheduledExecutorService heartbeat;
    /** Sessions whose store lease this owner holds. Guarded by {@code this}. */
    private final Map<String, Held> held = new HashMap<>();
    /** Sessions for which one thread of this owner is taking the store lease. Guarded by {@code this}. */
    private final Set<String> acquiring = new HashSet<>();

    private static final class Held {
        final boolean exclusive;
        final Fence fence;
        /** The holding threads and how many shares each holds. */
        final Map<Thread, Integer> holders = new HashMap<>();
        ScheduledFuture<?> renewal;

        Held(boolean exclusive, Fence fence) {
            this.exclusive = exclusive;
            this.fence = fence;
        }

        void add(Thread thread) {
            holders.merge(thread, 1, Integer::sum);
        }

        /** Gives one share of {@code thread} back; true when none is left. */
        boolean remove(Thread thread) {
            holders.computeIfPresent(thread, (t, n) -> n > 1 ? n - 1 : null);
            return holders.isEmpty();
        }
    }

    /**
     * @param ttl how long a lease lives without renewal; the heartbeat renews it every third of that
     * @param pollInterval how often a waiting caller asks again
     */
    public SessionLeases(SessionStore store, LeaseOwner owner, Duration ttl, Duration pollInterval) {
        this.store = Objects.requireNonNull(store, "store");
        this.owner = Objects.requireNonNull(owner, "owner");
        this.ttl = Objects.requireNonNull(ttl, "ttl");
        this.pollInterval = Objects.requireNonNull(pollInterval, "pollInterval");
        if (ttl.toMillis() < 300) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Lease time-to-live " + DurationFormat.format(ttl) + " is invalid; it must be at least 300 ms.");
        }
        this.heartbeat = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "session-lease-heartbeat");
            t.setDaemon(true);
            return t;
        });
    }

    /** Ten-second leases, polled every 200 ms. */
    public static SessionLeases withDefaults(SessionStore store, LeaseOwner owner) {
        return new SessionLeases(store, owner, Duration.ofSeconds(10), Duration.ofMillis(200));
    }

    public LeaseOwner owner() {
        return owner;
    }

    /** Waits for the session's lease and takes a share of it; see {@link #acquire(String, Consumer, Runnable)}. */
    public Lease acquire(String sessionId) {
        return acquire(sessionId, attempt -> { });
    }

    /** Waits for the session's lease and takes a share of it; see {@link #acquire(String, Consumer, Runnable)}. */
    public Lease acquire(String sessionId, Consumer<LeaseAttempt> onWait) {
        return acquire(sessionId, onWait, () -> { });
    }

    /**
     * Waits for the session's lease and takes a share of it. While it waits it logs who holds the
     * lease and tells {@code onWait} (once, with the first refused attempt), and runs {@code
     * whileWaiting} before each new try: an exception it throws ends the wait (the caller gave up).
     */
    public Lease acquire(String sessionId, Consumer<LeaseAttempt> onWait, Runnable whileWaiting) {
        while (true) {
            synchronized (this) {
                Held current = held.get(sessionId);
                if (current != null && (!current.exclusive || current.holders.containsKey(Thread.currentThread()))) {
                    current.add(Thread.currentThread());
                    return lease(sessionId, current.fence);
                }
                if (current == null && acquiring.add(sessionId)) {
                    break;
                }
            }
            // Held exclusively here (a retirement), or another thread here is taking it from the store.
            whileWaiting.run();
            awaitLocalChange(sessionId);
        }
        return fromStore(sessionId, false, onWait, whileWaiting);
    }

    /**
     * Waits until no thread of this owner holds the session's lease, then takes it from the store
     * for this caller alone: shares asked for meanwhile wait until it is closed. A thread that
     * already holds a share (a retirement asked for from a listener during a start) joins with
     * another share instead of waiting for itself.
     */
    public Lease acquireExclusive(String sessionId, Consumer<LeaseAttempt> onWait) {
        while (true) {
            synchronized (this) {
                Held current = held.get(sessionId);
                if (current != null && current.holders.containsKey(Thread.currentThread())) {
                    current.add(Thread.currentThread());
                    return lease(sessionId, current.fence);
                }
                if (current == null && acquiring.add(sessionId)) {
                    break;
                }
            }
            awaitLocalChange(sessionId);
        }
        return fromStore(sessionId, true, onWait, () -> { });
    }

    /** Takes the lease from the store; the caller has marked {@code sessionId} as {@link #acquiring}. */
    private Lease fromStore(String sessionId, boolean exclusive, Consumer<LeaseAttempt> onWait, Runnable whileWaiting) {
        try {
            boolean told = false;
            while (true) {
                LeaseAttempt attempt = store.tryAcquireLease(sessionId, owner, ttl);
                if (attempt.acquired()) {
                    hold(sessionId, exclusive, attempt.fence());
                    return lease(sessionId, attempt.fence());
                }
                if (!told) {
                    LOG.info("Session '{}' is held by {} (opening or retiring it); waiting for its lease (it runs until {}).", sessionId,
                            attempt.holder(), attempt.expiresAt());
                    onWait.accept(attempt);
                    told = true;
                }
                whileWaiting.run();
                sleep(sessionId, pollInterval.toMillis());
            }
        } finally {
            synchronized (this) {
                acquiring.remove(sessionId);
                notifyAll();
            }
        }
    }

    private synchronized void awaitLocalChange(String sessionId) {
        try {
            wait(pollInterval.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw interrupted(sessionId, e);
        }
    }

    private static void sleep(String sessionId, long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw interrupted(sessionId, e);
        }
    }

    private static SandboxException interrupted(String sessionId, InterruptedException e) {
        return new SandboxException(StandardErrorCode.INTERRUPTED, "Interrupted while waiting for the lease of session '" + sessionId + "'.", e);
    }

    private Lease lease(String sessionId, Fence fence) {
        AtomicBoolean open = new AtomicBoolean(true);
        Thread holder = Thread.currentThread();
        return new Lease() {
            @Override
            public Fence fence() {
                return fence;
            }

            @Override
            public void close() {
                if (open.compareAndSet(true, false)) {
                    release(sessionId, holder);
                }
            }
        };
    }

    private synchronized void hold(String sessionId, boolean exclusive, Fence fence) {
        Held current = new Held(exclusive, fence);
        current.add(Thread.currentThread());
        long period = Math.max(100, ttl.toMillis() / 3);
        current.renewal = heartbeat.scheduleAtFixedRate(() -> renew(sessionId, current), period, period, TimeUnit.MILLISECONDS);
        held.put(sessionId, current);
    }

    /**
     * A lease another owner took over is never taken back from here: the writes under its fence are
     * refused from now on, and the holders' work fails with {@link FencedOutException}.
     */
    private void renew(String sessionId, Held current) {
        try {
            if (!store.renewLease(sessionId, owner.id(), current.fence, ttl)) {
                LOG.warn("Lost the lease of session '{}' (token {}): another owner took it over after it expired;"
                        + " writes under it will be refused.", sessionId, current.fence.token());
                current.renewal.cancel(false);
            }
        } catch (RuntimeException e) {
            LOG.warn("Renewing the lease of session '{}' failed: {}", sessionId, e.getMessage());
        }
    }

    private void release(String sessionId, Thread holder) {
        Held current;
        synchronized (this) {
            current = held.get(sessionId);
            if (current == null || !current.remove(holder)) {
                return;
            }
            // Still marked as being acquired while the store lease goes, so no local thread takes it meanwhile.
            held.remove(sessionId);
            acquiring.add(sessionId);
            current.renewal.cancel(false);
        }
        try {
            store.releaseLease(sessionId, owner.id(), current.fence);
        } catch (RuntimeException e) {
            LOG.warn("Releasing the lease of session '{}' failed (it expires by itself): {}", sessionId, e.getMessage());
        } finally {
            synchronized (this) {
                acquiring.remove(sessionId);
                notifyAll();
            }
        }
    }

    /** Stops the heartbeat; leases still held expire by themselves. */
    @Override
    public void close() {
        heartbeat.shutdownNow();
    }
}
