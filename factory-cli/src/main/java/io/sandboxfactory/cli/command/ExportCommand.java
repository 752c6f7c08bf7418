package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.cli.output.PhaseReporter;
import io.sandboxfactory.cli.output.ProgressListener;
import io.sandboxfactory.cli.session.HostGit;
import io.sandboxfactory.cli.session.SessionExport;
import io.sandboxfactory.cli.session.StoredSessions;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.store.api.SessionRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code factory export}: the session's branch into a local repository, as {@code factory/<id>/<branch>}. */
@Command(mixinStandardHelpOptions = true, name = "export",
        description = {"Bring the session's branch (its commits; not uncommitted changes) into a local repository as branch"
                + " factory/<id>/<branch>, through a git bundle made in the sandbox: the working tree, index and HEAD of that"
                + " repository are not touched. Works for every provider with files, a container without network included.",
                "A repository that shares no history with the session branch is refused before anything is written to it (exit 2):"
                        + " related means one of its refs reaches the session's base commit or a root commit of the branch. An"
                        + " existing factory/<id>/<branch> that is not an ancestor of the session's commit is kept. --force overrides both."},
        footerHeading = "%nExamples:%n",
        footer = {"  factory export fix-42", "  factory export fix-42 --into ~/src/app", "  git log --oneline main..factory/fix-42/fix-42"})
public final class ExportCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", paramLabel = "ID", description = "Session id.")
    String sessionId;

    @Option(names = "--into", paramLabel = "PATH", description = "The local repository to export into (default: the current directory's).")
    Path into;

    @Option(names = "--dir", paramLabel = "D", description = "In an environment: the repository to export (its directory).")
    String dir;

    @Option(names = "--force", description = "Export into a repository that shares no history with the session, and overwrite"
            + " factory/<id>/<branch> even when the session's commit does not descend from it.")
    boolean force;

    @Override
    public Integer call() {
        Console console = root.console;
        Path target = console.workingDirectory().resolve(into == null ? Path.of(".") : into).normalize();
        if (!Files.isDirectory(target)) {
            throw new BadInputException("--into " + target + " is not a directory; give a local git repository.");
        }
        HostGit git = new HostGit(target, console.environment());
        if (git.run("rev-parse", "--git-dir").exitCode() != 0) {
            throw new BadInputException(target + " is not in a git repository; run export inside one or give --into PATH.");
        }
        PhaseReporter reporter = new PhaseReporter(console.err(), root.global.quiet || root.global.json);
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, root.global), new ProgressListener(reporter))) {
            SandboxFactory factory = use.factory();
            SessionRecord record = StoredSessions.record(factory, sessionId);
            String ref = SessionExport.refFor(sessionId, record.definition().branch(), git);
            SessionHandle handle = StoredSessions.resume(factory, record);
            reporter.begin("exporting " + record.definition().branch() + " of session " + sessionId);
            SessionExport.Exported exported = new SessionExport(handle, record).into(git, ref, Optional.ofNullable(dir), force);
            reporter.end();
            if (root.global.json) {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("session", sessionId);
                doc.put("repository", target.toString());
                doc.put("ref", exported.ref());
                doc.put("commit", exported.commit());
                doc.put("previous", exported.previous().orElse(null));
                doc.put("uncommittedLeftBehind", exported.uncommittedLeftBehind());
                Json.print(console, doc);
            } else {
                console.out().println(exported.ref().substring("refs/heads/".length()) + " " + exported.commit());
                if (exported.uncommittedLeftBehind()) {
                    console.err().println("factory: session " + sessionId + " has uncommitted changes; export brings commits only"
                            + " (see them with 'factory diff " + sessionId + "')");
                }
            }
            return ExitCodes.OK;
        }
    }
}
