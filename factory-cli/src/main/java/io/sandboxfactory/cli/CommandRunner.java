package io.sandboxfactory.cli;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.Sandboxes;
import io.sandboxfactory.core.session.SessionHandle;

import java.time.Duration;
import java.util.List;

/** Runs the user's command in a session: argv semantics, output streamed through untouched. */
final class CommandRunner {

    private CommandRunner() {
    }

    static CommandResult run(SessionHandle session, List<String> argv, Duration timeout, Console console, boolean capture) {
        // A session resumed from the store starts here, so its checkout is known before the command runs.
        session.awaitStarted();
        CommandOptions.Builder options = CommandOptions.builder();
        session.checkout().ifPresent(options::cwd);
        if (timeout != null) {
            options.timeout(timeout);
        }
        if (!capture) {
            options.onStdout(chunk -> {
                console.out().print(chunk);
                console.out().flush();
            });
            options.onStderr(chunk -> {
                console.err().print(chunk);
                console.err().flush();
            });
        }
        // Through the handle: a sandbox that vanished is replaced and the command replayed once.
        return session.executeCommand(Sandboxes.quote(argv.get(0)), argv.subList(1, argv.size()), options.build());
    }
}
