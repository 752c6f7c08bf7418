package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code factory touch}: mark a session used now, so idle policies leave it be. */
@Command(mixinStandardHelpOptions = true, name = "touch",
        description = "Mark a session used now, as a command would, so lifecycle.stopAfterIdle and deleteAfterIdle leave it be (for an agent thinking between commands).",
        footerHeading = "%nExamples:%n", footer = {"  factory touch fix-42"})
public final class TouchCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", paramLabel = "ID", description = "Session id.")
    String sessionId;

    @Override
    public Integer call() {
        Console console = root.console;
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, root.global), SessionListener.NONE)) {
            SandboxFactory factory = use.factory();
            if (!factory.touch(sessionId)) {
                throw new BadInputException("Session '" + sessionId + "' is not known in " + factory.stateDirectory()
                        + "; open it first with 'factory open'.");
            }
            return ExitCodes.OK;
        }
    }
}
