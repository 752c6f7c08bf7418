package io.sandboxfactory.cli;

import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

/**
 * The fix for the commonest slip with {@code run} and {@code exec}: a command whose own options
 * come without {@code --}, so the factory takes them for its own ({@code factory exec j1 git status
 * -s}: "Unknown option: '-s'"). Gives the same line with {@code --} where the command starts.
 */
final class DoubleDashHint {

    private DoubleDashHint() {
    }

    /** The corrected command line, when {@code ex} is an unknown option of a command that runs one and {@code args} has no {@code --}. */
    static Optional<String> fix(CommandLine.ParameterException ex, String[] args) {
        CommandLine command = ex.getCommandLine();
        boolean runsACommand = command.getCommandSpec().positionalParameters().stream().anyMatch(p -> "CMD".equals(p.paramLabel()));
        List<String> given = Arrays.asList(args);
        int name = given.indexOf(command.getCommandName());
        if (!(ex instanceof CommandLine.UnmatchedArgumentException) || !runsACommand || given.contains("--") || name < 0) {
            return Optional.empty();
        }
        // Positionals before the command: exec's session id; run has none.
        int idsToSkip = command.getCommandSpec().positionalParameters().stream().filter(p -> !"CMD".equals(p.paramLabel())).toList().size();
        for (int i = name + 1; i < given.size(); i++) {
            String arg = given.get(i);
            if (arg.startsWith("-")) {
                i += takesSeparateValue(command, arg) ? 1 : 0;
            } else if (idsToSkip-- == 0) {
                List<String> fixed = new ArrayList<>(given.subList(0, i));
                fixed.add("--");
                fixed.addAll(given.subList(i, given.size()));
                return Optional.of("factory " + String.join(" ", fixed));
            }
        }
        return Optional.empty();
    }

    private static boolean takesSeparateValue(CommandLine command, String arg) {
        OptionSpec option = command.getCommandSpec().findOption(arg);
        return !arg.contains("=") && option != null && option.arity().max() > 0;
    }
}
