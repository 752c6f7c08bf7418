package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.store.api.SessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The threads currently running a session's start hook, so a retirement can cut them short: {@link
 * #cancel} marks their registrations and interrupts them, which kills a blocked command on
 * providers that honour interrupts (the local provider kills the process group). A registration's
 * own interrupt is cleared when it closes, so no stray interrupt escapes to the caller's thread.
 * With {@link #watchRetirements} the starts are also cut short when a retirement in <em>another</em>
 * process (or factory) bumps the session's generation in the shared store, so that retirement does
 * not wait for a whole clone or setup before it can end the sandbox. Owned by one factory.
 */
public final class InFlightStarts implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(InFlightStarts.class);

    private final Map<String, Set<Registration>> running = new HashMap<>();
    private ScheduledExecutorService watcher;

    /** Registers the current thread as running a start of {@code sessionId}; no generation is watched. */
    public Registration register(String sessionId) {
        return register(sessionId, -1);
    }

    /**
     * Registers the current thread as running a start of {@code sessionId} made for {@code
     * generation}; a watch cancels it once the store holds another generation.
     */
    public synchronized Registration register(String sessionId, long generation) {
        Registration registration = new Registration(sessionId, Thread.currentThread(), generation);
        running.computeIfAbsent(sessionId, id -> new HashSet<>()).add(registration);
        return registration;
    }

    /** Cancels every running start of {@code sessionId}; returns how many there were. */
    public synchronized int cancel(String sessionId) {
        Set<Registration> registrations = running.getOrDefault(sessionId, Set.of());
        registrations.forEach(Registration::cancel);
        return registrations.size();
    }

    /**
     * Polls {@code store} every {@code period} for the generation of each session with a start
     * running here, and cancels the starts a retirement has overtaken. Idempotent.
     */
    public synchronized void watchRetirements(SessionStore store, Duration period) {
        if (watcher != null) {
            return;
        }
        watcher = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "session-retirement-watch");
            t.setDaemon(true);
            return t;
        });
        watcher.scheduleWithFixedDelay(() -> checkGenerations(store), period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    private void checkGenerations(SessionStore store) {
        Map<String, List<Registration>> watched = new HashMap<>();
        synchronized (this) {
            running.forEach((id, registrations) -> {
                List<Registration> withGeneration = registrations.stream().filter(r -> r.generation >= 0).toList();
                if (!withGeneration.isEmpty()) {
                    watched.put(id, withGeneration);
                }
            });
        }
        watched.forEach((id, registrations) -> {
            long current;
            try {
                current = store.generation(id);
            } catch (RuntimeException e) {
                LOG.debug("Could not read the generation of session '{}': {}", id, e.getMessage());
                return;
            }
            synchronized (this) {
                for (Registration registration : registrations) {
                    if (registration.generation != current && !registration.cancelled && running.getOrDefault(id, Set.of()).contains(registration)) {
                        LOG.info("Session '{}' was retired elsewhere; cutting its start here short.", id);
                        registration.cancel();
                    }
                }
            }
        });
    }

    private synchronized void remove(Registration registration) {
        Set<Registration> registrations = running.get(registration.sessionId);
        if (registrations != null) {
            registrations.remove(registration);
            if (registrations.isEmpty()) {
                running.remove(registration.sessionId);
            }
        }
        if (registration.cancelled) {
            // The interrupt was ours, to stop this start; it must not leak into the caller.
            Thread.interrupted();
        }
    }

    /** Stops the retirement watch. */
    @Override
    public synchronized void close() {
        if (watcher != null) {
            watcher.shutdownNow();
        }
    }

    /** One running start. Close it on the thread that registered it. */
    public final class Registration implements AutoCloseable {
        private final String sessionId;
        private final Thread thread;
        private final long generation;
        private volatile boolean cancelled;

        private Registration(String sessionId, Thread thread, long generation) {
            this.sessionId = sessionId;
            this.thread = thread;
            this.generation = generation;
        }

        private void cancel() {
            cancelled = true;
            thread.interrupt();
        }

        /** Whether a retirement cancelled this start. */
        public boolean cancelled() {
            return cancelled;
        }

        @Override
        public void close() {
            remove(this);
        }
    }
}
