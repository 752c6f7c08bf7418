package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.cli.session.SandboxStates;
import io.sandboxfactory.cli.session.StoredSessions;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.store.SessionRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.Map;
import java.util.concurrent.Callable;

/** {@code factory status}: what the store and the provider know about one session. */
@Command(mixinStandardHelpOptions = true, name = "status", description = "Show a session: provider, sandbox state, branch, workdir, created and last-used times.",
        footerHeading = "%nExamples:%n", footer = {"  factory status fix-42", "  factory --json status fix-42"})
public final class StatusCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", paramLabel = "ID", description = "Session id.")
    String sessionId;

    @Override
    public Integer call() {
        Console console = root.console;
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, root.global), SessionListener.NONE)) {
            SandboxFactory factory = use.factory();
            SessionRecord record = StoredSessions.record(factory, sessionId);
            Map<String, Object> doc = new SandboxStates(factory).describe(record);
            if (root.global.json) {
                Json.print(console.out(), doc);
            } else {
                doc.forEach((k, v) -> console.out().printf("%-15s %s%n", k + ":", v == null ? "-" : v));
            }
            return ExitCodes.OK;
        }
    }
}
