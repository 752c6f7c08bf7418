package io.sandboxfactory.core.internal.session;

import jakarta.inject.Inject;

import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Opens of one session that arrive while it is being started here join that start instead of
 * queueing for the session's lease to start it again (200 concurrent opens of a running session
 * are one warm start, not 200 in a row). Only an open asking for the same work joins ({@link
 * SessionPlan#sameWork}); it returns when the start it joined does, or fails with its failure. One
 * per factory.
 */
final class StartFlights {

    private record Flight(SessionPlan plan, CompletableFuture<Void> done) {
    }

    private final Map<SessionEntry, Flight> flights = new ConcurrentHashMap<>();

    @Inject
    StartFlights() {
    }

    /** Runs {@code start} for {@code entry} and {@code plan}, or waits for the start of the same work under way. */
    void startOrJoin(SessionEntry entry, SessionPlan plan, Runnable start) {
        while (true) {
            Flight mine = new Flight(plan, new CompletableFuture<>());
            Flight current = flights.putIfAbsent(entry, mine);
            if (current == null) {
                try {
                    start.run();
                    mine.done().complete(null);
                } catch (RuntimeException | Error e) {
                    mine.done().completeExceptionally(e);
                    throw e;
                } finally {
                    flights.remove(entry, mine);
                }
                return;
            }
            try {
                current.done().join();
            } catch (CompletionException e) {
                if (current.plan().sameWork(plan)) {
                    throw e.getCause() instanceof RuntimeException failure ? failure : e;
                }
            }
            if (current.plan().sameWork(plan)) {
                return;
            }
            // Another plan was started: this open starts again with its own.
        }
    }
}
