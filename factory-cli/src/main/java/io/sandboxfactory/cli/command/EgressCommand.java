package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.cli.session.SessionEgress;
import io.sandboxfactory.cli.session.StoredSessions;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.egress.EgressPolicy;
import io.sandboxfactory.core.session.SessionListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code factory egress}: show or change a session's egress rules, live. */
@Command(mixinStandardHelpOptions = true, name = "egress",
        description = {"Show a session's egress rules (mode, allowed and denied hosts) or change them: the next connection its sandboxes make"
                + " follows the change, without a restart, and the session keeps it. A deny wins over every allow. Rules apply in"
                + " egress.mode allowlist."},
        footerHeading = "%nExamples:%n", footer = {"  factory egress fix-42", "  factory egress fix-42 --allow registry.npmjs.org --allow '*.githubusercontent.com'",
        "  factory egress fix-42 --deny gist.github.com", "  factory --json egress fix-42"})
public final class EgressCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", paramLabel = "ID", description = "Session id.")
    String sessionId;

    @Option(names = "--allow", paramLabel = "H", description = "Allow a host pattern: host, *.domain, either with :port; repeatable.")
    List<String> allow = new ArrayList<>();

    @Option(names = "--deny", paramLabel = "H", description = "Deny a host pattern, even under a wider allow; repeatable.")
    List<String> deny = new ArrayList<>();

    @Override
    public Integer call() {
        Console console = root.console;
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, root.global), SessionListener.NONE)) {
            SandboxFactory factory = use.factory();
            StoredSessions.record(factory, sessionId);
            EgressPolicy policy = allow.isEmpty() && deny.isEmpty() ? factory.egress(sessionId) : factory.changeEgress(sessionId, allow, deny);
            if (root.global.json) {
                Json.print(console, SessionEgress.describe(factory, sessionId));
            } else {
                console.out().println(sessionId + " " + SessionEgress.line(policy));
            }
            return ExitCodes.OK;
        }
    }
}
