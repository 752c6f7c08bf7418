package io.sandboxfactory.cli;

import io.sandboxfactory.api.SandboxListing;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code factory sweep}: remove orphaned sandboxes of the selected provider. */
@Command(mixinStandardHelpOptions = true, name = "sweep", description = "Remove sandboxes of the selected provider whose session is unknown to the session store or retired. Live sessions are never touched.",
        footerHeading = "%nExamples:%n", footer = {"  factory sweep", "  factory --provider docker --json sweep"})
final class SweepCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Override
    public Integer call() {
        Console console = root.console;
        try (SandboxFactory factory = new FactoryLauncher(console, root.global).open(SessionListener.NONE)) {
            List<SandboxListing> removed = factory.sweep();
            if (root.global.json) {
                Json.print(console.out(), Map.of("removed", removed.stream()
                        .map(l -> Map.of("session", l.sessionId(), "sandboxId", l.sandboxId())).toList()));
            } else {
                for (SandboxListing listing : removed) {
                    console.out().println("removed " + listing.sessionId() + " (" + listing.sandboxId() + ")");
                }
                console.err().println("factory: swept " + removed.size() + " orphaned sandbox(es)");
            }
            return ExitCodes.OK;
        }
    }
}
