package io.sandboxfactory.core.session;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;

import java.util.List;
import java.util.Optional;

/**
 * An open session, as {@code SandboxFactory.openSession} and {@code session} give it to a host: its
 * sandbox and, once a start resolved it, its working directory and layout. After an
 * {@link StartMode#EAGER eager} open both are present; after a lazy or background open they appear
 * when the first start finishes ({@link #awaitStarted()} waits for it).
 *
 * <p>{@link #executeCommand} survives a dead sandbox: when a command fails because the sandbox
 * itself is gone — a removed container, a transport that failed before the command was created, a
 * session directory deleted under the running session — the handle drops the dead instance, starts
 * a fresh one through the normal open path (materialize, branch, setup gate) and replays the command
 * once; from then on the handle and the factory's memo point at the fresh sandbox. A command that
 * may have started (any exit code, a timeout, a transport failure after the command was opened) is
 * never replayed. A retired session is never revived.
 */
public interface SessionHandle extends CommandExecutor {

    String sessionId();

    /** The session's sandbox; after a revival the fresh one. Prefer {@link #executeCommand}, which survives a dead sandbox. */
    MastraSandbox<?> sandbox();

    /** The session root inside the sandbox, once resolved. */
    Optional<String> workdir();

    /** Where the checkouts and markers are, once the workdir is resolved. */
    Optional<SessionLayout> layout();

    /** The checkout of the session's own repository inside the sandbox, once resolved. */
    Optional<String> checkout();

    /**
     * Where the session's files are rooted, once resolved: the checkout of a single repository, the
     * workspace root of an environment (its checkouts are {@code <dir>/} under it).
     */
    Optional<String> filesRoot();

    /** The template the session's sandbox was made from in this process, if a start used one. */
    Optional<String> template();

    StartMode startMode();

    /**
     * Joins (or makes) the sandbox's start and returns this handle; a failed start throws the
     * session machinery's own exception (for example a {@code SetupCommandException}).
     */
    SessionHandle awaitStarted();

    /**
     * Marks the session used now, so idle policies ({@code lifecycle.stopAfterIdle}) leave it be:
     * for an agent that thinks between commands. Commands run through this handle do it themselves.
     */
    void touch();

    /**
     * Runs a command in the session's sandbox (starting it first if needed; a failed start throws
     * the session machinery's own exception). When the sandbox turns out to be gone, the command is
     * replayed once on a fresh sandbox, as the class documentation describes; the replay's own
     * failure, or a failure to start the fresh sandbox, is thrown as it is.
     */
    @Override
    CommandResult executeCommand(String command, List<String> args, CommandOptions options);
}
