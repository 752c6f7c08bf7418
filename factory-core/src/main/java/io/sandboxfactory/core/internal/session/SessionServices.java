package io.sandboxfactory.core.internal.session;

import jakarta.inject.Inject;
import io.sandboxfactory.core.internal.store.SessionLeases;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.store.api.SessionStore;

import org.slf4j.LoggerFactory;

import java.util.Objects;

/**
 * The factory-scoped collaborators of the session machinery, shared by every session of one
 * factory (never static).
 *
 * @param store durable session state
 * @param leases this factory's per-session leases in {@code store}
 * @param inFlight starts running now, so a retirement can cut them short
 * @param listener progress and command observer
 * @param defaults what specs fall back on
 * @param activity keeps the sessions' last-used and busy times while commands run
 * @param journal records every command run in a session
 */
public record SessionServices(SessionStore store, SessionLeases leases, InFlightStarts inFlight, SessionListener listener,
                              SessionDefaults defaults, CommandActivity activity, CommandJournal journal) {

    /** Without a command journal. */
    public SessionServices(SessionStore store, SessionLeases leases, InFlightStarts inFlight, SessionListener listener,
                           SessionDefaults defaults, CommandActivity activity) {
        this(store, leases, inFlight, listener, defaults, activity, CommandJournal.none());
    }

    @Inject
    public SessionServices(SessionStore store, SessionLeases leases, InFlightStarts inFlight, SessionListener listener,
                           SessionDefaults defaults, CommandActivity activity, CommandJournal journal) {
        this.store = Objects.requireNonNull(store, "store");
        this.leases = Objects.requireNonNull(leases, "leases");
        this.inFlight = Objects.requireNonNull(inFlight, "inFlight");
        this.listener = Objects.requireNonNullElse(listener, SessionListener.NONE);
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.activity = Objects.requireNonNull(activity, "activity");
        this.journal = Objects.requireNonNullElse(journal, CommandJournal.none());
    }

    /** Passes phase output to the listener; a failing listener is logged, never fatal. */
    public void output(String sessionId, SessionPhase phase, String chunk) {
        try {
            listener.onOutput(sessionId, phase, chunk);
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(SessionServices.class).debug("Session listener failed: {}", e.toString());
        }
    }

    /** Tells the listener about a phase; a failing listener is logged, never fatal. */
    public void phase(String sessionId, SessionPhase phase, String detail) {
        try {
            listener.onPhase(sessionId, phase, detail);
        } catch (RuntimeException e) {
            LoggerFactory.getLogger(SessionServices.class).debug("Session listener failed: {}", e.toString());
        }
    }
}
