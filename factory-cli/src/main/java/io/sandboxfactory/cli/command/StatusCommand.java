package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.cli.session.OtherProviders;
import io.sandboxfactory.cli.session.SessionStates;
import io.sandboxfactory.cli.session.SessionEgress;
import io.sandboxfactory.cli.session.StoredSessions;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.store.api.SessionRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.Map;
import java.util.concurrent.Callable;

/** {@code factory status}: what the store and the provider know about one session. */
@Command(mixinStandardHelpOptions = true, name = "status", description = "Show a session: provider, state (running, idle, paused, stopped, absent, failed, unreachable), branch, workdir, created and last-used times.",
        footerHeading = "%nExamples:%n", footer = {"  factory status fix-42", "  factory --json status fix-42"})
public final class StatusCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", paramLabel = "ID", description = "Session id.")
    String sessionId;

    @Override
    public Integer call() {
        Console console = root.console;
        FactoryLauncher launcher = new FactoryLauncher(console, root.global);
        try (FactorySource.Use use = console.factories().use(launcher, SessionListener.NONE)) {
            SandboxFactory factory = use.factory();
            SessionRecord record = StoredSessions.record(factory, sessionId);
            Map<String, Object> doc;
            try (SessionStates states = new SessionStates(factory, OtherProviders.of(launcher))) {
                doc = states.describe(record);
            }
            doc.put("egress", SessionEgress.document(factory.egress(sessionId)));
            if (root.global.json) {
                Json.print(console, doc);
            } else {
                doc.put("egress", SessionEgress.line(factory.egress(sessionId)));
                doc.forEach((k, v) -> console.out().printf("%-15s %s%n", k + ":", v == null ? "-" : v));
            }
            return ExitCodes.OK;
        }
    }
}
