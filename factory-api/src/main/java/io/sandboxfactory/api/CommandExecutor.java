package io.sandboxfactory.api;

import io.sandboxfactory.api.support.Sandboxes;
import java.util.List;

/**
 * Runs a shell command somewhere. The command string is shell syntax; {@code args} are quoted
 * with {@link Sandboxes#quote(String)} and appended, so they reach the program verbatim.
 *
 * <p>A non-zero exit code is a {@link CommandResult}, not an exception. Exceptions mean the
 * command could not be run or its outcome is unknown (see {@link SandboxException} subclasses).
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface CommandExecutor {

    /** Runs {@code command} followed by the quoted {@code args}. */
    CommandResult executeCommand(String command, List<String> args, CommandOptions options);

    /** Runs {@code command} with no extra arguments and default options. */
    default CommandResult executeCommand(String command) {
        return executeCommand(command, List.of(), CommandOptions.defaults());
    }

    /** Runs {@code command} with the quoted {@code args} and default options. */
    default CommandResult executeCommand(String command, List<String> args) {
        return executeCommand(command, args, CommandOptions.defaults());
    }
}
