package io.sandboxfactory.cli.command;

import io.sandboxfactory.api.CommandResult;
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
import io.sandboxfactory.cli.session.StoredSessions;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.DurationFormat;
import io.sandboxfactory.core.session.SessionHandle;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code factory exec}: run one command in an open session. */
@Command(mixinStandardHelpOptions = true, name = "exec",
        description = "Run one command in the checkout of an open session and exit with its exit code.",
        footerHeading = "%nExamples:%n",
        footer = {"  factory exec fix-42 -- npm test", "  factory exec fix-42 --timeout 10m -- make check"})
public final class ExecCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", paramLabel = "ID", description = "Session id.")
    String sessionId;

    @Option(names = "--timeout", paramLabel = "DURATION", description = "Kill the command after this long (e.g. 30s, 10m); exit code 124.")
    String timeout;

    @Option(names = "--workdir", paramLabel = "PATH", description = "Run in PATH, relative to the checkout (an environment: to its workspace root,"
            + " where each repository is <dir>/); default: the (primary) checkout. Paths outside are refused.")
    String workdir;

    @Parameters(index = "1..*", paramLabel = "CMD", arity = "1..*", description = "The command and its arguments, after --.")
    List<String> command;

    @Override
    public Integer call() {
        Console console = root.console;
        GlobalOptions global = root.global;
        PhaseReporter reporter = new PhaseReporter(console.err(), global.quiet || global.json);
        var limit = timeout == null ? null : DurationFormat.parse(timeout);
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, global), new ProgressListener(reporter))) {
            SandboxFactory factory = use.factory();
            SessionHandle handle = StoredSessions.resume(factory, sessionId);
            CommandResult result = CommandRunner.run(handle, command, limit != null ? limit : factory.config().timeouts().command().orElse(null),
                        console, global.json, java.util.Optional.ofNullable(workdir));
            if (global.json) {
                Json.print(console, SessionJson.describe(factory, handle, reporter, result));
            }
            return result.exitCode();
        }
    }
}
