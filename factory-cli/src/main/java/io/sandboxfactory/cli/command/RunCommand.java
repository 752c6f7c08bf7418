package io.sandboxfactory.cli.command;

import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.GlobalOptions;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.cli.output.PhaseReporter;
import io.sandboxfactory.cli.output.ProgressListener;
import io.sandboxfactory.cli.session.CommandRunner;
import io.sandboxfactory.cli.session.SessionJson;
import io.sandboxfactory.cli.session.SessionOptions;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.DurationFormat;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.StartMode;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ThreadLocalRandom;

/** {@code factory run}: open a session, run one command, retire it. */
@Command(mixinStandardHelpOptions = true, name = "run",
        description = "Open a session, run one command in it, stream its output and exit with its exit code."
                + " The session is destroyed afterwards unless --keep.",
        footerHeading = "%nExamples:%n",
        footer = {"  factory run --repo . --branch demo -- git log --oneline -3",
                "  factory run --repo octo/app --branch fix-42 --setup 'npm ci' -- npm test",
                "  factory --json run --session ci-7 --keep --repo https://example.org/r.git --branch ci-7 -- make check"})
public final class RunCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Option(names = "--session", paramLabel = "ID", description = "Session id (default: a new random run-… id).")
    String session;

    @Mixin
    SessionOptions sessionOptions;

    @Option(names = "--keep", description = "Keep the session (and its sandbox) after the command.")
    boolean keep;

    @Option(names = "--timeout", paramLabel = "DURATION", description = "Kill the command after this long (e.g. 30s, 10m); exit code 124.")
    String timeout;

    @Parameters(paramLabel = "CMD", arity = "1..*", description = "The command and its arguments, after --.")
    List<String> command;

    @Override
    public Integer call() {
        GlobalOptions global = root.global;
        Console console = root.console;
        String sessionId = session != null ? session : "run-" + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt());
        PhaseReporter reporter = new PhaseReporter(console.err(), global.quiet || global.json);
        var limit = timeout == null ? null : DurationFormat.parse(timeout);
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, global), new ProgressListener(reporter))) {
            SandboxFactory factory = use.factory();
            var spec = sessionOptions.spec(sessionId, console.workingDirectory(), StartMode.EAGER, factory);
            boolean retire = !keep;
            if (retire) {
                // Recorded with the session: if this process is killed before it destroys it, sweep can.
                spec = spec.ephemeralFor(HostProcess.current());
            }
            try {
                reporter.begin("opening session " + sessionId + " on provider " + factory.providerName());
                SessionHandle handle = factory.openSession(spec);
                reporter.end();
                CommandResult result = CommandRunner.run(handle, command, limit != null ? limit : factory.config().timeouts().command().orElse(null),
                        console, global.json);
                if (global.json) {
                    Json.print(console, SessionJson.describe(factory, handle, reporter, result));
                }
                return result.exitCode();
            } finally {
                if (retire) {
                    destroy(factory, sessionId);
                }
            }
        }
    }

    /**
     * Destroys the session even when the command was cancelled: in the factory daemon a client that
     * went away (Ctrl-C) interrupts this thread, and a teardown or removal would stop at the interrupt.
     */
    private static void destroy(SandboxFactory factory, String sessionId) {
        boolean cancelled = Thread.interrupted();
        try {
            factory.retire(sessionId, RetireMode.DESTROY);
        } finally {
            if (cancelled) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
