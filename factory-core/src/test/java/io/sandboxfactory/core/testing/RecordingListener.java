package io.sandboxfactory.core.testing;

import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionPhase;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Records every command line, phase and output chunk the session machinery reports. Thread-safe. */
public final class RecordingListener implements SessionListener {

    private final List<String> commands = Collections.synchronizedList(new ArrayList<>());
    private final List<SessionPhase> phases = Collections.synchronizedList(new ArrayList<>());
    private final List<String> outputs = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void onCommand(String sessionId, String commandLine) {
        commands.add(commandLine);
    }

    private final java.util.concurrent.atomic.AtomicReference<Hold> hold = new java.util.concurrent.atomic.AtomicReference<>();

    /** Holds the thread that next reports {@code phase}: {@code entered} opens, and it goes on once {@code release} does. */
    public record Hold(SessionPhase phase, java.util.concurrent.CountDownLatch entered, java.util.concurrent.CountDownLatch release) {
    }

    public void holdNext(Hold next) {
        hold.set(next);
    }

    @Override
    public void onPhase(String sessionId, SessionPhase phase, String detail) {
        phases.add(phase);
        Hold next = hold.get();
        if (next != null && next.phase() == phase && hold.compareAndSet(next, null)) {
            next.entered().countDown();
            try {
                next.release().await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    @Override
    public void onOutput(String sessionId, SessionPhase phase, String chunk) {
        outputs.add(chunk);
    }

    /** Every output chunk the machinery streamed (clone progress, setup output). */
    public List<String> outputs() {
        synchronized (outputs) {
            return List.copyOf(outputs);
        }
    }

    public List<String> commands() {
        synchronized (commands) {
            return List.copyOf(commands);
        }
    }

    public List<SessionPhase> phases() {
        synchronized (phases) {
            return List.copyOf(phases);
        }
    }

    public void clear() {
        commands.clear();
        phases.clear();
        outputs.clear();
    }
}
