package io.sandboxfactory.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.lang.reflect.Field;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Decides which subcommands the command line must be built with. Building picocli's model of a
 * command is reflection over its class; an invocation runs one command, so only that one is needed.
 *
 * <p>Guarantees: the result is exactly one subcommand only when the first argument that is not a
 * global option (or a global option's value) is that subcommand's name and the subcommand does not
 * look at its siblings ({@code help} and {@code completion} do). Anything else (no command, an
 * unknown or misspelled one, an option the root does not know, {@code --help}, {@code --version})
 * gets every subcommand, so help, suggestions and error messages are the same as with all of them.
 */
final class SubcommandSelection {

    /** Subcommands that read the whole command tree. */
    static final Set<String> NEED_ALL = Set.of("help", "completion");

    private SubcommandSelection() {
    }

    static List<Class<?>> needed(List<Class<?>> subcommands, String... args) {
        Optional<String> name = commandName(args);
        if (name.isEmpty() || NEED_ALL.contains(name.get())) {
            return subcommands;
        }
        for (Class<?> subcommand : subcommands) {
            Command command = subcommand.getAnnotation(Command.class);
            if (command != null && command.name().equals(name.get())) {
                return List.of(subcommand);
            }
        }
        return subcommands;
    }

    /** The first argument that is neither a global option nor its value, if only global options come before it. */
    static Optional<String> commandName(String... args) {
        Set<String> flags = new HashSet<>();
        Set<String> withValue = new HashSet<>();
        for (Field field : GlobalOptions.class.getDeclaredFields()) {
            Option option = field.getAnnotation(Option.class);
            if (option != null) {
                (field.getType() == boolean.class ? flags : withValue).addAll(List.of(option.names()));
            }
        }
        for (int i = 0; i < args.length; i++) {
            String arg = args[i];
            if (!arg.startsWith("-")) {
                return Optional.of(arg);
            }
            int equals = arg.indexOf('=');
            String optionName = equals < 0 ? arg : arg.substring(0, equals);
            if (withValue.contains(optionName)) {
                if (equals < 0) {
                    i++;
                }
            } else if (!flags.contains(arg)) {
                return Optional.empty();
            }
        }
        return Optional.empty();
    }
}
