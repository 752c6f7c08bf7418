package io.sandboxfactory.core.store;

import io.sandboxfactory.api.SandboxException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
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
 * holder in this owner closes it; a crashed owner's lease frees within one {@code ttl}. Within one
 * owner the lease is shared (counted), because threads of one factory already coordinate through
 * the session memo and the sandbox's single-flight start.
 */
public final class SessionLeases implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SessionLeases.class);

    /** One session's lease while this owner holds it. Closing it gives this holder's share back. */
    public interface Lease extends AutoCloseable {
        @Override
        void close();
    }

    private final SessionStore store;
    private final LeaseOwner owner;
    private final Duration ttl;
    private final Duration pollInterval;
    private final ScheduledExecutorService heartbeat;
    private final Map<String, Held> held = new HashMap<>();

    private static final class Held {
        int count;
        ScheduledFuture<?> renewal;
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
            throw new IllegalArgumentException("Lease time-to-live " + ttl + " is invalid; it must be at least 300 ms.");
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

    /** Waits for the session's lease and takes it; see {@link #acquire(String, Consumer)}. */
    public Lease acquire(String sessionId) {
        return acquire(sessionId, attempt -> { });
    }

    /**
     * Waits for the session's lease and takes it. While it waits it logs who holds the lease and
     * tells {@code onWait} (once, with the first refused attempt).
     */
    public Lease acquire(String sessionId, Consumer<LeaseAttempt> onWait) {
        if (share(sessionId)) {
            return lease(sessionId);
        }
        boolean told = false;
        while (true) {
            LeaseAttempt attempt = store.tryAcquireLease(sessionId, owner, ttl);
            if (attempt.acquired()) {
                hold(sessionId);
                return lease(sessionId);
            }
            if (!told) {
                LOG.info("Session '{}' is being opened by {}; waiting for it (its lease runs until {}).", sessionId,
                        attempt.holder(), attempt.expiresAt());
                onWait.accept(attempt);
                told = true;
            }
            try {
                Thread.sleep(pollInterval.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new SandboxException("INTERRUPTED", "Interrupted while waiting for the lease of session '" + sessionId + "'.", e);
            }
        }
    }

    private Lease lease(String sessionId) {
        AtomicBoolean open = new AtomicBoolean(true);
        return () -> {
            if (open.compareAndSet(true, false)) {
                release(sessionId);
            }
        };
    }

    private synchronized boolean share(String sessionId) {
        Held current = held.get(sessionId);
        if (current == null) {
            return false;
        }
        current.count++;
        return true;
    }

    private synchronized void hold(String sessionId) {
        Held current = held.computeIfAbsent(sessionId, id -> new Held());
        current.count++;
        if (current.renewal == null) {
            long period = Math.max(100, ttl.toMillis() / 3);
            current.renewal = heartbeat.scheduleAtFixedRate(() -> renew(sessionId), period, period, TimeUnit.MILLISECONDS);
        }
    }

    private void renew(String sessionId) {
        try {
            if (!store.renewLease(sessionId, owner.id(), ttl)) {
                LOG.warn("Lost the lease of session '{}' (it expired before the heartbeat renewed it); retaking it.", sessionId);
                store.tryAcquireLease(sessionId, owner, ttl);
            }
        } catch (RuntimeException e) {
            LOG.warn("Renewing the lease of session '{}' failed: {}", sessionId, e.getMessage());
        }
    }

    private void release(String sessionId) {
        synchronized (this) {
            Held current = held.get(sessionId);
            if (current == null) {
                return;
            }
            if (--current.count > 0) {
                return;
            }
            held.remove(sessionId);
            current.renewal.cancel(false);
        }
        try {
            store.releaseLease(sessionId, owner.id());
        } catch (RuntimeException e) {
            LOG.warn("Releasing the lease of session '{}' failed (it expires by itself): {}", sessionId, e.getMessage());
        }
    }

    /** Stops the heartbeat; leases still held expire by themselves. */
    @Override
    public void close() {
        heartbeat.shutdownNow();
    }
}
