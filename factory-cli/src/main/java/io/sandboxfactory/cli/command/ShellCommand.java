package io.sandboxfactory.cli.command;

import io.sandboxfactory.api.capability.AttachableSandbox;
import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.session.StoredSessions;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.io.IOException;
import java.util.concurrent.Callable;

/**
 * {@code factory shell}: a shell in the session's checkout with the environment its commands get,
 * through the provider's {@link AttachableSandbox}: the host process it describes (the shell inside
 * the local session's boundary, {@code docker exec}, {@code kubectl exec}) runs here with this
 * process's stdin, stdout and stderr, so the terminal is the user's own; a TTY is asked for when
 * this process has a terminal, else the shell reads commands from stdin. The command never runs in
 * the factory daemon for the same reason.
 */
@Command(mixinStandardHelpOptions = true, name = "shell",
        description = {"Open an interactive shell in the session's checkout, with the environment the session's commands get"
                + " (local: $SHELL or sh; docker: docker exec; kubernetes: kubectl exec; with a TTY when this is a terminal).",
                "Works with every provider whose sandboxes offer an interactive attach (local, docker, kubernetes).",
                "With stdin not a terminal the shell reads its commands from stdin. Exits with the shell's exit code."},
        footerHeading = "%nExamples:%n",
        footer = {"  factory shell fix-42", "  echo 'git status' | factory shell fix-42"})
public final class ShellCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", paramLabel = "ID", description = "Session id.")
    String sessionId;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Console console = root.console;
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, root.global), SessionListener.NONE)) {
            SandboxFactory factory = use.factory();
            SessionHandle handle = StoredSessions.resume(factory, sessionId);
            handle.awaitStarted();
            if (!(handle.sandbox() instanceof AttachableSandbox attachable)) {
                throw new BadInputException("The " + factory.providerName() + " provider has no interactive shell; use 'factory exec "
                        + sessionId + " -- CMD' there.");
            }
            String checkout = handle.checkout().orElseThrow(() -> new IllegalStateException("Session '" + sessionId
                    + "' started but its checkout is unknown."));
            AttachableSandbox.Attach attach = attachable.attach(new AttachableSandbox.Request(checkout, System.console() != null,
                    console.environment()));
            ProcessBuilder shell = new ProcessBuilder(attach.command());
            attach.hostDirectory().ifPresent(directory -> shell.directory(directory.toFile()));
            shell.environment().clear();
            shell.environment().putAll(attach.environment());
            handle.touch();
            Process process = shell.inheritIO().start();
            try {
                return process.waitFor();
            } finally {
                handle.touch();
            }
        }
    }
}
