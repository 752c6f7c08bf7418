package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.core.session.Redaction;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionLayout;
import io.sandboxfactory.core.session.StartMode;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The {@link SessionHandle} the opener gives out: it works on the session's memo entry and, when the
 * sandbox turns out to be gone, revives it through {@link SessionRevival} (see {@link DeadSandboxes}).
 */
final class OpenSessionHandle implements SessionHandle {

    private final AtomicReference<SessionEntry> entry;
    private final StartMode startMode;
    private final SessionRevival revival;
    private final GuardedStart starts;
    private final CommandActivity activity;
    private final CommandJournal journal;

    OpenSessionHandle(SessionEntry entry, StartMode startMode, SessionRevival revival, GuardedStart starts,
                      CommandActivity activity, CommandJournal journal) {
        this.entry = new AtomicReference<>(Objects.requireNonNull(entry, "entry"));
        this.startMode = Objects.requireNonNull(startMode, "startMode");
        this.revival = Objects.requireNonNull(revival, "revival");
        this.starts = Objects.requireNonNull(starts, "starts");
        this.activity = Objects.requireNonNull(activity, "activity");
        this.journal = Objects.requireNonNull(journal, "journal");
    }

    @Override
    public String sessionId() {
        return entry().sessionId();
    }

    @Override
    public MastraSandbox<?> sandbox() {
        return entry().sandbox();
    }

    @Override
    public Optional<String> workdir() {
        return entry().workdir();
    }

    @Override
    public Optional<SessionLayout> layout() {
        SessionEntry current = entry();
        return current.workdir().flatMap(root -> current.plan().map(plan -> plan.layout(root)));
    }

    @Override
    public Optional<String> checkout() {
        return layout().map(l -> l.ownRepository().path());
    }

    @Override
    public Optional<String> filesRoot() {
        return entry().filesRoot();
    }

    @Override
    public Optional<String> template() {
        return entry().template();
    }

    @Override
    public StartMode startMode() {
        return startMode;
    }

    @Override
    public SessionHandle awaitStarted() {
        starts.start(entry());
        return this;
    }

    @Override
    public void touch() {
        activity.touch(sessionId());
    }

    @Override
    public CommandResult executeCommand(String command, List<String> args, CommandOptions options) {
        Objects.requireNonNull(command, "command");
        Objects.requireNonNull(args, "args");
        Objects.requireNonNull(options, "options");
        try (CommandActivity.Command busy = activity.begin(sessionId())) {
            Instant started = journal.now();
            CommandResult result = execute(command, args, options);
            // The overlay holds the session's token; a command line or output that shows it is redacted.
            journal.record(sessionId(), journal.origin(), Sandboxes.join(command, args), started, result,
                    Redaction.ofEnvironment(sandbox().getEnv()));
            return result;
        }
    }

    private CommandResult execute(String command, List<String> args, CommandOptions options) {
        SessionEntry current = entry();
        try {
            current = starts.start(current);
        } catch (RuntimeException failure) {
            // A start that failed counts itself: only a start another caller begins after it matters.
            return replayIfGone(current, current.starts(), failure, command, args, options);
        }
        long startsSeen = current.starts();
        try {
            return current.sandbox().executeCommand(command, args, options);
        } catch (RuntimeException failure) {
            return replayIfGone(current, startsSeen, failure, command, args, options);
        }
    }

    private CommandResult replayIfGone(SessionEntry current, long startsSeen, RuntimeException failure, String command,
                                       List<String> args, CommandOptions options) {
        if (!sandboxIsGone(current, failure, options)) {
            throw failure;
        }
        return run(revival.revive(current, startsSeen, failure), command, args, options);
    }

    private CommandResult run(SessionEntry target, String command, List<String> args, CommandOptions options) {
        return starts.start(target).sandbox().executeCommand(command, args, options);
    }

    /**
     * A dead sandbox ({@link DeadSandboxes#isDeadSandboxError}), or a refusal over a missing working
     * directory when a probe shows that the session's own directory holding it is gone.
     */
    private static boolean sandboxIsGone(SessionEntry current, RuntimeException failure, CommandOptions options) {
        if (DeadSandboxes.isDeadSandboxError(failure)) {
            return true;
        }
        Optional<String> owned = sessionDirectoryOf(current, options.cwd());
        return owned.isPresent() && DeadSandboxes.isMissingWorkdirError(failure, current.sandbox(), owned.get());
    }

    /**
     * The session directory (a checkout, else the root) that {@code cwd} lies in; the root when no
     * cwd is given. Empty for a cwd outside the session's directories, whose absence says nothing
     * about the sandbox.
     */
    private static Optional<String> sessionDirectoryOf(SessionEntry current, Optional<String> cwd) {
        Optional<String> root = current.workdir();
        if (root.isEmpty()) {
            return Optional.empty();
        }
        if (cwd.isEmpty()) {
            return root;
        }
        String path = cwd.get().startsWith("/") ? cwd.get() : root.get().replaceFirst("/+$", "") + "/" + cwd.get();
        List<String> owned = current.plan().map(plan -> plan.layout(root.get()).repositories().stream()
                .map(SessionLayout.Checkout::path).toList()).orElse(List.of());
        for (String directory : owned) {
            if (within(path, directory)) {
                return Optional.of(directory);
            }
        }
        return within(path, root.get()) ? root : Optional.empty();
    }

    private static boolean within(String path, String directory) {
        String dir = directory.replaceFirst("/+$", "");
        return path.equals(dir) || path.startsWith(dir + "/");
    }

    /** The entry this handle works on: after a revival (through any handle of the session) the fresh one. */
    SessionEntry entry() {
        SessionEntry held = entry.get();
        SessionEntry live = revival.follow(held);
        if (live != held) {
            entry.compareAndSet(held, live);
        }
        return live;
    }

    @Override
    public String toString() {
        return "SessionHandle[" + sessionId() + ", " + sandbox().status() + ", workdir=" + workdir().orElse("<unresolved>") + "]";
    }
}
