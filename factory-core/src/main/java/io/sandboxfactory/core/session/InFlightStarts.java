package io.sandboxfactory.core.session;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The threads currently running a session's start hook, so a retirement can cut them short: {@link
 * #cancel} marks their registrations and interrupts them, which kills a blocked command on
 * providers that honour interrupts (the local provider kills the process group). A registration's
 * own interrupt is cleared when it closes, so no stray interrupt escapes to the caller's thread.
 * Owned by one factory.
 */
public final class InFlightStarts {

    private final Map<String, Set<Registration>> running = new HashMap<>();

    /** Registers the current thread as running a start of {@code sessionId}. */
    public synchronized Registration register(String sessionId) {
        Registration registration = new Registration(sessionId, Thread.currentThread());
        running.computeIfAbsent(sessionId, id -> new HashSet<>()).add(registration);
        return registration;
    }

    /** Cancels every running start of {@code sessionId}; returns how many there were. */
    public synchronized int cancel(String sessionId) {
        Set<Registration> registrations = running.getOrDefault(sessionId, Set.of());
        for (Registration registration : registrations) {
            registration.cancelled = true;
            registration.thread.interrupt();
        }
        return registrations.size();
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

    /** One running start. Close it on the thread that registered it. */
    public final class Registration implements AutoCloseable {
        private final String sessionId;
        private final Thread thread;
        private volatile boolean cancelled;

        private Registration(String sessionId, Thread thread) {
            this.sessionId = sessionId;
            this.thread = thread;
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
