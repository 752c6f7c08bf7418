package io.sandboxfactory.core.session;

import io.sandboxfactory.api.MastraSandbox;

import java.util.Objects;
import java.util.Optional;

/**
 * An open session: its sandbox and, once a start resolved it, its working directory and layout.
 * After an {@link StartMode#EAGER eager} open both are present; after a lazy or background open
 * they appear when the first start finishes ({@link #awaitStarted()} waits for it).
 */
public final class SessionHandle {

    private final SessionEntry entry;
    private final StartMode startMode;

    SessionHandle(SessionEntry entry, StartMode startMode) {
        this.entry = Objects.requireNonNull(entry, "entry");
        this.startMode = Objects.requireNonNull(startMode, "startMode");
    }

    public String sessionId() {
        return entry.sessionId();
    }

    /** The session's sandbox; run commands with {@code executeCommand}, which starts it if needed. */
    public MastraSandbox<?> sandbox() {
        return entry.sandbox();
    }

    /** The session root inside the sandbox, once resolved. */
    public Optional<String> workdir() {
        return entry.workdir();
    }

    /** Where the checkouts and markers are, once the workdir is resolved. */
    public Optional<SessionLayout> layout() {
        return entry.workdir().flatMap(root -> entry.plan().map(plan -> plan.layout(root)));
    }

    /** The checkout of the session's own repository inside the sandbox, once resolved. */
    public Optional<String> checkout() {
        return layout().map(l -> l.ownRepository().path());
    }

    public StartMode startMode() {
        return startMode;
    }

    /**
     * Joins (or makes) the sandbox's start and returns this handle; a failed start throws the
     * session machinery's own exception (for example a {@code SetupCommandException}).
     */
    public SessionHandle awaitStarted() {
        StartFailures.start(entry.sandbox());
        return this;
    }

    @Override
    public String toString() {
        return "SessionHandle[" + sessionId() + ", " + sandbox().status() + ", workdir=" + workdir().orElse("<unresolved>") + "]";
    }
}
