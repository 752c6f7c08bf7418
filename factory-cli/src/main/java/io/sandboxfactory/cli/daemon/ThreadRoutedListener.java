package io.sandboxfactory.cli.daemon;

import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionPhase;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The listener of a factory that serves several commands at once (in the daemon): what the session
 * machinery reports goes to the listener of the command it belongs to. Starts run on the thread of
 * the caller that begins them, so phases and commands are routed by thread; the output of a
 * command the machinery runs (git's progress, setup output) arrives on the provider's reader
 * threads, so it is routed by session, to the command whose thread last reported a phase of it.
 */
final class ThreadRoutedListener implements SessionListener {

    private final Map<Thread, SessionListener> byThread = new ConcurrentHashMap<>();
    private final Map<String, SessionListener> bySession = new ConcurrentHashMap<>();

    void route(Thread thread, SessionListener listener) {
        byThread.put(thread, listener);
    }

    void unroute(Thread thread) {
        SessionListener listener = byThread.remove(thread);
        if (listener != null) {
            bySession.values().removeIf(listener::equals);
        }
    }

    @Override
    public void onPhase(String sessionId, SessionPhase phase, String detail) {
        SessionListener listener = ofThisThread(sessionId);
        if (listener != null) {
            listener.onPhase(sessionId, phase, detail);
        }
    }

    @Override
    public void onCommand(String sessionId, String commandLine) {
        SessionListener listener = ofThisThread(sessionId);
        if (listener != null) {
            listener.onCommand(sessionId, commandLine);
        }
    }

    @Override
    public void onOutput(String sessionId, SessionPhase phase, String chunk) {
        SessionListener listener = byThread.get(Thread.currentThread());
        if (listener == null) {
            listener = bySession.get(sessionId);
        }
        if (listener != null) {
            listener.onOutput(sessionId, phase, chunk);
        }
    }

    /** The listener of the command on this thread, now also the one the session's output goes to. */
    private SessionListener ofThisThread(String sessionId) {
        SessionListener listener = byThread.get(Thread.currentThread());
        if (listener != null) {
            bySession.put(sessionId, listener);
        }
        return listener;
    }
}
