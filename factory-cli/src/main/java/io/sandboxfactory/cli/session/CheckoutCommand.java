package io.sandboxfactory.cli.session;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionLayout;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

/**
 * A tool command (git, rm) the CLI itself runs in one checkout of a started session; a non-zero exit
 * is a failure naming it.
 */
final class CheckoutCommand {

    private static final Duration TIMEOUT = Duration.ofMinutes(10);

    private CheckoutCommand() {
    }

    /** Runs it; with {@code stream} its stdout goes there as it comes (and only a little is retained). */
    static CommandResult run(SessionHandle session, SessionLayout.Checkout checkout, Consumer<String> stream, String command,
                             String... args) {
        CommandOptions.Builder options = CommandOptions.builder().cwd(checkout.path()).timeout(TIMEOUT);
        if (stream != null) {
            options.onStdout(stream).maxRetainedBytes(4096);
        }
        // On the sandbox, not the handle: the factory's own git and rm are no commands of the user's journal.
        CommandResult result = session.sandbox().executeCommand(command, List.of(args), options.build());
        if (result.exitCode() != 0) {
            String why = result.stderr().lines().filter(l -> !l.isBlank()).findFirst().orElse("exit " + result.exitCode());
            throw new IllegalStateException(command + " " + args[0] + " failed in the checkout " + checkout.path() + " of session '"
                    + session.sessionId() + "': " + why);
        }
        return result;
    }
}
