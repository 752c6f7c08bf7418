package io.sandboxfactory.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The root {@code factory} command: global options and the list of subcommands. */
@Command(name = "factory",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Gives every session of work on a Git repository its own isolated sandbox.",
        subcommands = {
                RunCommand.class, OpenCommand.class, ExecCommand.class, StatusCommand.class, ListCommand.class,
                RetireCommand.class, SweepCommand.class, ProvidersCommand.class, CompletionCommand.class,
                CommandLine.HelpCommand.class},
        footerHeading = "%nExamples:%n",
        footer = {
                "  factory run --repo . --branch demo -- git log --oneline -3",
                "  factory open fix-42 --repo octo/app --branch fix-42 --setup 'npm ci'",
                "  factory exec fix-42 -- npm test",
                "  factory retire fix-42 --delete",
                "",
                "Exit codes: the command's own for run and exec; 2 for bad input; 1 when the sandbox or the framework failed."})
final class FactoryCommand implements Runnable {

    @Mixin
    GlobalOptions global = new GlobalOptions();

    @Spec
    CommandSpec spec;

    final Console console;

    FactoryCommand(Console console) {
        this.console = console;
    }

    @Override
    public void run() {
        spec.commandLine().usage(console.err());
    }

    static CommandLine commandLine(Console console) {
        FactoryCommand root = new FactoryCommand(console);
        CommandLine commandLine = new CommandLine(root);
        commandLine.setOut(new java.io.PrintWriter(console.out(), true));
        commandLine.setErr(new java.io.PrintWriter(console.err(), true));
        commandLine.setExecutionExceptionHandler(new ErrorReporter(console, root.global));
        commandLine.setParameterExceptionHandler((ex, args) -> {
            console.err().println("factory: " + ex.getMessage());
            ex.getCommandLine().usage(console.err(), CommandLine.Help.Ansi.OFF);
            return ExitCodes.BAD_INPUT;
        });
        return commandLine;
    }
}
