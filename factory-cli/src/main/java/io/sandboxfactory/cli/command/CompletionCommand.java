package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import picocli.AutoComplete;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code factory completion bash}: prints a completion script. */
@Command(mixinStandardHelpOptions = true, name = "completion", description = "Print a shell completion script.",
        footerHeading = "%nExamples:%n", footer = {"  source <(factory completion bash)", "  factory completion bash > /etc/bash_completion.d/factory"})
public final class CompletionCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "SHELL", description = "The shell: bash (zsh reads bash scripts with bashcompinit).")
    String shell;

    @Override
    public Integer call() {
        if (!shell.equals("bash") && !shell.equals("zsh")) {
            throw new BadInputException("Shell '" + shell + "' is not supported; use bash or zsh.");
        }
        root.console.out().print(AutoComplete.bash("factory", spec.root().commandLine()));
        root.console.out().flush();
        return ExitCodes.OK;
    }
}
