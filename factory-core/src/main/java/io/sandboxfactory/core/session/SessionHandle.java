package io.sandboxfactory.core.session;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.core.git.GitCredentials;

import java.time.Instant;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicReference;

/**
 * An open session: its sandbox and, once a start resolved it, its working directory and layout.
 * After an {@link StartMode#EAGER eager} open both are present; after a lazy or background open
 * they appear when the first start finishes ({@link #awaitStarted()} waits for it).
 *
 * <p>{@link #executeCommand} survives a dead sandbox: when a command fails because the sandbox
 * itself is gone (see {@link DeadSandboxes}) — a removed container, a transport that failed before
 * the command was created, a session directory deleted under the running session — the handle drops
 * the dead instance, starts a fresh one through the normal open path (materialize, branch, setup
 * gate) and replays the command once; from then on the handle and the factory's memo point at the
 * fresh sandbox. A command that may have started (any exit code, a timeout, a transport failure
 * after the command was opened) is never replayed. A retired session is never revived.
 */
public final class SessionHandle implements CommandExecutor {

    private final AtomicReference<SessionEntry> entry;
    private final StartMode startMode;
    private final SessionRevival revival;
    private final GuardedStart starts;
    private final CommandActivity activity;
    private final CommandJournal journal;

    SessionHandle(SessionEntry entry, StartMode startMode, SessionRevival revival, GuardedStart starts, CommandActivity activity,
                  CommandJournal journal) {
        this.entry = new AtomicReference<>(Objects.requireNonNull(entry, "entry"));
        this.startMode = Objects.requireNonNull(startMode, "startMode");
        this.revival = Objects.requireNonNull(revival, "revival");
        this.starts = Objects.requireNonNull(starts, "starts");
        this.activity = Objects.requireNonNull(activity, "activity");
        this.journal = Objects.requireNonNull(journal, "journal");
    }

    public String sessionId() {
        return entry().sessionId();
    }

    /** The session's sandbox; after a revival the fresh one. Prefer {@link #executeCommand}, which survives a dead sandbox. */
    public MastraSandbox<?> sandbox() {
        return entry().sandbox();
    }

    /** The session root inside the sandbox, once resolved. */
    public Optional<String> workdir() {
        return entry().workdir();
    }

    /** Where the checkouts and markers are, once the workdir is resolved. */
    public Optional<SessionLayout> layout() {
        SessionEntry current = entry();
        return current.workdir().flatMap(root -> current.plan().map(plan -> plan.layout(root)));
    }

    /** The checkout of the session's own repository inside the sandbox, once resolved. */
    public Optional<String> checkout() {
        return layout().map(l -> l.ownRepository().path());
    }

    /**
     * Where the session's files are rooted, once resolved: the checkout of a single repository, the
     * workspace root of an environment (its checkouts are {@code <dir>/} under it).
     */
    public Optional<String> filesRoot() {
        SessionEntry current = entry();
        return current.workdir().flatMap(root -> current.plan().map(plan -> plan.filesRoot(plan.layout(root))));
    }

    /** The template the session's sandbox was made from in this process, if a start used one. */
    public Optional<String> template() {
        return entry().template();
    }

    public StartMode startMode() {
        return startMode;
    }

    /**
     * Joins (or makes) the sandbox's start and returns this handle; a failed start throws the
     * session machinery's own exception (for example a {@code SetupCommandException}).
     */
    public SessionHandle awaitStarted() {
        starts.start(entry());
        return this;
    }

    /**
     * Marks the session used now, so idle policies ({@code lifecycle.stopAfterIdle}) leave it be:
     * for an agent that thinks between commands. Commands run through this handle do it themselves.
     */
    public void touch() {
        activity.touch(sessionId());
    }

    /**
     * Runs a command in the session's sandbox (starting it first if needed; a failed start throws
     * the session machinery's own exception). When the sandbox turns out to be gone, the command is
     * replayed once on a fresh sandbox, as the class documentation describes; the replay's own
     * failure, or a failure to start the fresh sandbox, is thrown as it is.
     */
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
                    GitCredentials.redaction(sandbox().getEnv()));
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
