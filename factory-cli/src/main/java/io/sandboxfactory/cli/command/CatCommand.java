package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.session.SessionFileAccess;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code factory cat}: a file of a session on stdout, byte for byte. */
@Command(mixinStandardHelpOptions = true, name = "cat",
        description = {"Print a file of a session's checkout on stdout, byte for byte (binary-safe, streamed).",
                "Paths that leave the checkout (.., absolute, or through a symbolic link) are refused with exit 2."},
        footerHeading = "%nExamples:%n",
        footer = {"  factory cat fix-42:README.md", "  factory cat fix-42:build/app.tar > app.tar"})
public final class CatCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", paramLabel = "SESSION:PATH", description = "The session and the file, relative to its checkout.")
    String target;

    @Override
    public Integer call() {
        Console console = root.console;
        SessionFileAccess.Target file = SessionFileAccess.Target.parse(target).orElseThrow(() -> new BadInputException(
                "'" + target + "' is not SESSION:PATH; write the session id, a colon, then the file's path in its checkout."));
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, root.global), SessionListener.NONE)) {
            SandboxFactory factory = use.factory();
            SessionFileAccess.reportingBadPaths(() -> {
                SessionFileAccess.files(factory, file.sessionId()).readFile(file.path(), console.out());
                return null;
            });
            console.out().flush();
            return ExitCodes.OK;
        }
    }
}
