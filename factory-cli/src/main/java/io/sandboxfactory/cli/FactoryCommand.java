package io.sandboxfactory.cli;

import io.sandboxfactory.cli.command.CatCommand;
import io.sandboxfactory.cli.command.ConfigCommand;
import io.sandboxfactory.cli.command.CompletionCommand;
import io.sandboxfactory.cli.command.CpCommand;
import io.sandboxfactory.cli.command.DaemonCommand;
import io.sandboxfactory.cli.command.DiffCommand;
import io.sandboxfactory.cli.command.EgressCommand;
import io.sandboxfactory.cli.command.ExecCommand;
import io.sandboxfactory.cli.command.ExportCommand;
import io.sandboxfactory.cli.command.ListCommand;
import io.sandboxfactory.cli.command.LogCommand;
import io.sandboxfactory.cli.command.LsCommand;
import io.sandboxfactory.cli.command.McpCommand;
import io.sandboxfactory.cli.command.OpenCommand;
import io.sandboxfactory.cli.command.ProvidersCommand;
import io.sandboxfactory.cli.command.RetireCommand;
import io.sandboxfactory.cli.command.RunCommand;
import io.sandboxfactory.cli.command.ShellCommand;
import io.sandboxfactory.cli.command.StatusCommand;
import io.sandboxfactory.cli.command.SweepCommand;
import io.sandboxfactory.cli.command.TemplateCommand;
import io.sandboxfactory.cli.command.TouchCommand;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.ErrorReporter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

import java.util.List;

/**
 * The root {@code factory} command: global options and the list of subcommands.
 *
 * <p>The subcommands are registered in code rather than in the annotation, so that an invocation of
 * one of them builds only that one's picocli model ({@link SubcommandSelection}): picocli reflects
 * over every command class it is given, which cost a short command 50–70 ms.
 */
@Command(name = "factory",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "Gives every session of work on a Git repository its own isolated sandbox.",
        footerHeading = "%nExamples:%n",
        footer = {
                "  factory run --repo . --branch demo -- git log --oneline -3",
                "  factory open fix-42 --repo octo/app --branch fix-42 --setup 'npm ci'",
                "  factory exec fix-42 -- npm test",
                "  factory retire fix-42 --delete",
                "",
                "Exit codes: the command's own for run and exec; 2 for bad input; 1 when the sandbox or the framework failed;"
                        + " 3 from daemon status when no daemon runs."})
public final class FactoryCommand implements Runnable {

    /** Every subcommand, in the order the help lists them. */
    static final List<Class<?>> SUBCOMMANDS = List.of(
            RunCommand.class, OpenCommand.class, ExecCommand.class, StatusCommand.class, ListCommand.class,
            RetireCommand.class, SweepCommand.class, TouchCommand.class, CpCommand.class, CatCommand.class, LsCommand.class,
            DiffCommand.class, LogCommand.class, EgressCommand.class, ExportCommand.class, ShellCommand.class, McpCommand.class, ProvidersCommand.class, ConfigCommand.class, DaemonCommand.class, TemplateCommand.class, CompletionCommand.class, CommandLine.HelpCommand.class);

    @Mixin
    public GlobalOptions global = new GlobalOptions();

    @Spec
    CommandSpec spec;

    public final Console console;

    FactoryCommand(Console console) {
        this.console = console;
    }

    @Override
    public void run() {
        spec.commandLine().usage(console.err());
    }

    /** The command line for {@code args}: with only the subcommand they name when that is unambiguous, else with all. */
    public static CommandLine commandLine(Console console, String... args) {
        FactoryCommand root = new FactoryCommand(console);
        CommandLine commandLine = new CommandLine(root);
        // Before the settings below: picocli applies them to the subcommands present at that moment.
        for (Class<?> subcommand : SubcommandSelection.needed(SUBCOMMANDS, args)) {
            commandLine.addSubcommand(subcommand);
        }
        commandLine.setOut(new java.io.PrintWriter(console.out(), true));
        commandLine.setErr(new java.io.PrintWriter(console.err(), true));
        commandLine.setExecutionExceptionHandler(new ErrorReporter(console, root.global));
        commandLine.setParameterExceptionHandler((ex, badArgs) -> {
            // The error and where to look, not 30 lines of usage that bury it.
            console.err().println("factory: " + ex.getMessage());
            DoubleDashHint.fix(ex, badArgs).ifPresent(fixed -> console.err().println(
                    "factory: put '--' before the command so that its options are its own: " + fixed));
            console.err().println("factory: see '" + ex.getCommandLine().getCommandSpec().qualifiedName() + " --help'.");
            return ExitCodes.BAD_INPUT;
        });
        return commandLine;
    }

}
