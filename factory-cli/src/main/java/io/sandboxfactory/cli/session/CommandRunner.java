package io.sandboxfactory.cli.session;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.core.config.DurationFormat;
import io.sandboxfactory.core.files.FileInfo;
import io.sandboxfactory.core.files.SandboxFilesystem;
import io.sandboxfactory.core.session.RedactedStream;
import io.sandboxfactory.core.session.Redaction;
import io.sandboxfactory.core.session.SessionHandle;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;

/** Runs the user's command in a session: argv semantics, output streamed through with secrets masked. */
public final class CommandRunner {

    private CommandRunner() {
    }

    public static CommandResult run(SessionHandle session, List<String> argv, Duration timeout, Console console, boolean capture) {
        return run(session, argv, timeout, console, capture, Optional.empty());
    }

    /**
     * @param workdir where the command runs, relative to the session's files root (the checkout, or
     *     an environment's workspace root); default: the (primary) checkout
     */
    public static CommandResult run(SessionHandle session, List<String> argv, Duration timeout, Console console, boolean capture,
                             Optional<String> workdir) {
        if (capture) {
            return reportingTimeout(run(session, argv, timeout, workdir, Output.CAPTURED), timeout, console);
        }
        // The session's variables (its token) are known once it started; what streams to the terminal is masked
        // with them and the caller's, a secret split across two chunks included.
        session.awaitStarted();
        Redaction redaction = console.redaction().and(Redaction.ofEnvironment(session.sandbox().getEnv()));
        RedactedStream out = redaction.streamTo(chunk -> {
            console.out().print(chunk);
            console.out().flush();
        });
        RedactedStream err = redaction.streamTo(chunk -> {
            console.err().print(chunk);
            console.err().flush();
        });
        CommandResult result;
        try {
            result = run(session, argv, timeout, workdir, new Output(out, err, CommandOptions.defaults().maxRetainedBytes()));
        } finally {
            out.flush();
            err.flush();
        }
        return reportingTimeout(result, timeout, console);
    }

    private static CommandResult reportingTimeout(CommandResult result, Duration timeout, Console console) {
        if (result.timedOut() && timeout != null) {
            // Exit 124 alone reads like the command's own failure; say what happened and who killed it.
            console.err().println(timedOutMessage(timeout, result.exitCode()));
            console.err().flush();
        }
        return result;
    }

    /**
     * Where a command's output goes while it runs (nowhere when {@code null}), and how much of each
     * stream its result keeps.
     */
    public record Output(Consumer<String> onStdout, Consumer<String> onStderr, long retainedBytes) {
        static final Output CAPTURED = new Output(null, null, CommandOptions.defaults().maxRetainedBytes());
    }

    /** Runs {@code argv} in {@code session}, its output going to {@code output}; says nothing about a timeout. */
    public static CommandResult run(SessionHandle session, List<String> argv, Duration timeout, Optional<String> workdir, Output output) {
        // A session resumed from the store starts here, so its checkout is known before the command runs.
        session.awaitStarted();
        CommandOptions.Builder options = CommandOptions.builder().maxRetainedBytes(output.retainedBytes());
        if (workdir.isPresent()) {
            options.cwd(directoryIn(session, workdir.get()));
        } else {
            session.checkout().ifPresent(options::cwd);
        }
        if (timeout != null) {
            options.timeout(timeout);
        }
        if (output.onStdout() != null) {
            options.onStdout(output.onStdout());
        }
        if (output.onStderr() != null) {
            options.onStderr(output.onStderr());
        }
        // Through the handle: a sandbox that vanished is replaced and the command replayed once.
        return session.executeCommand(Sandboxes.quote(argv.get(0)), argv.subList(1, argv.size()), options.build());
    }

    /** {@code factory: command timed out after 30s and was killed; exit 124}. */
    public static String timedOutMessage(Duration timeout, int exitCode) {
        return "factory: command timed out after " + DurationFormat.format(timeout) + " and was killed; exit " + exitCode;
    }

    /** {@code relative} under the session's files root, confined like file paths (symbolic links resolved in the sandbox). */
    private static String directoryIn(SessionHandle session, String relative) {
        String root = session.filesRoot().orElseThrow(() -> new IllegalStateException("Session '" + session.sessionId()
                + "' started but its checkout is unknown."));
        String normal = SessionFileAccess.reportingBadPaths(() -> SandboxFilesystem.requireRelative(relative, root));
        FileInfo info = SessionFileAccess.reportingBadPaths(() -> SandboxFilesystem.of(session.sandbox(), root).stat(normal));
        if (!info.isDirectory()) {
            throw new BadInputException("Working directory '" + relative + "' of session '" + session.sessionId()
                    + "' is not a directory; give a directory relative to " + root + ".");
        }
        return normal.isEmpty() ? root : root + "/" + normal;
    }
}
