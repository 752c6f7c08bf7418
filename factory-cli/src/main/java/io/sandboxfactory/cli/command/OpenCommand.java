package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.GlobalOptions;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.cli.output.PhaseReporter;
import io.sandboxfactory.cli.output.ProgressListener;
import io.sandboxfactory.cli.session.SessionJson;
import io.sandboxfactory.cli.session.SessionOptions;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.StartMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.concurrent.Callable;

/** {@code factory open}: open (or reopen) a session and leave it running for later commands. */
@Command(mixinStandardHelpOptions = true, name = "open",
        description = "Open a session: get or create its sandbox, clone, check out the branch and run setup once. It stays for later exec calls.",
        footerHeading = "%nExamples:%n",
        footer = {"  factory open fix-42 --repo octo/app --branch fix-42 --setup 'npm ci'",
                "  factory open review-7 --repo /srv/git/app.git --branch review-7 --base develop"})
public final class OpenCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", paramLabel = "ID", description = "Session id.")
    String sessionId;

    @Mixin
    SessionOptions sessionOptions;

    @Override
    public Integer call() {
        Console console = root.console;
        GlobalOptions global = root.global;
        PhaseReporter reporter = new PhaseReporter(console.err(), global.quiet || global.json);
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, global), new ProgressListener(reporter))) {
            SandboxFactory factory = use.factory();
            var spec = sessionOptions.spec(sessionId, console.workingDirectory(), StartMode.EAGER, factory);
            reporter.begin("opening session " + sessionId + " on provider " + factory.providerName());
            SessionHandle handle = factory.openSession(spec);
            reporter.end();
            if (global.json) {
                Json.print(console, SessionJson.describe(factory, handle, reporter, null));
            } else {
                console.out().println(sessionId + " " + handle.checkout().orElse(handle.workdir().orElse("")));
            }
            return ExitCodes.OK;
        }
    }
}
