package io.sandboxfactory.core.testing;

import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionPhase;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Records every command line and phase the session machinery reports. Thread-safe. */
public final class RecordingListener implements SessionListener {

    private final List<String> commands = Collections.synchronizedList(new ArrayList<>());
    private final List<SessionPhase> phases = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void onCommand(String sessionId, String commandLine) {
        commands.add(commandLine);
    }

    @Override
    public void onPhase(String sessionId, SessionPhase phase, String detail) {
        phases.add(phase);
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
    }
}
