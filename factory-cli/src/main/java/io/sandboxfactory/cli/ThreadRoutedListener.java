package io.sandboxfactory.cli;

import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionPhase;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The listener of a factory that serves several commands at once (in the daemon): what the session
 * machinery reports on a command's thread goes to that command's listener. Starts run on the thread
 * of the caller that begins them, so a command sees the phases of the start it waits for.
 */
final class ThreadRoutedListener implements SessionListener {

    private final Map<Thread, SessionListener> byThread = new ConcurrentHashMap<>();

    void route(Thread thread, SessionListener listener) {
        byThread.put(thread, listener);
    }

    void unroute(Thread thread) {
        byThread.remove(thread);
    }

    @Override
    public void onPhase(String sessionId, SessionPhase phase, String detail) {
        SessionListener listener = byThread.get(Thread.currentThread());
        if (listener != null) {
            listener.onPhase(sessionId, phase, detail);
        }
    }

    @Override
    public void onCommand(String sessionId, String commandLine) {
        SessionListener listener = byThread.get(Thread.currentThread());
        if (listener != null) {
            listener.onCommand(sessionId, commandLine);
        }
    }

    @Override
    public void onOutput(String sessionId, SessionPhase phase, String chunk) {
        SessionListener listener = byThread.get(Thread.currentThread());
        if (listener != null) {
            listener.onOutput(sessionId, phase, chunk);
        }
    }
}
