package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.GlobalOptions;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.CopyProgress;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.cli.session.SessionFileAccess;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.files.SandboxFilesystem;
import io.sandboxfactory.core.files.TransferSummary;
import io.sandboxfactory.core.session.SessionListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code factory cp}: copy files and directory trees between the host and a session, like {@code docker cp}. */
@Command(mixinStandardHelpOptions = true, name = "cp",
        description = {"Copy a file or directory (recursively) between the host and a session's checkout, like docker cp.",
                "Exactly one of SRC and DST is SESSION:PATH, PATH relative to the checkout (empty for the checkout itself).",
                "Into an existing directory the copy keeps its name; otherwise it takes DST's name. Symbolic links are copied as links.",
                "Paths that leave the checkout (.., absolute, or through a symbolic link) are refused with exit 2."},
        footerHeading = "%nExamples:%n",
        footer = {"  factory cp fix-42:src/main.c ./main.c", "  factory cp ./fixtures fix-42:test/", "  factory cp fix-42: ./snapshot",
                "", "Exit codes: 0 copied; 2 bad input (malformed argument, missing path, path outside the checkout); 1 the sandbox failed."})
public final class CpCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", paramLabel = "SRC", description = "Host path or SESSION:PATH to copy from.")
    String source;

    @Parameters(index = "1", paramLabel = "DST", description = "Host path or SESSION:PATH to copy to.")
    String destination;

    @Override
    public Integer call() {
        Console console = root.console;
        GlobalOptions global = root.global;
        Optional<SessionFileAccess.Target> from = SessionFileAccess.Target.parse(source);
        Optional<SessionFileAccess.Target> to = SessionFileAccess.Target.parse(destination);
        if (from.isPresent() == to.isPresent()) {
            throw new BadInputException("Exactly one of SRC '" + source + "' and DST '" + destination + "' must be SESSION:PATH;"
                    + " the other is a host path (write ./a:b for a host path holding a colon).");
        }
        SessionFileAccess.Target session = from.orElseGet(to::orElseThrow);
        Path host = console.workingDirectory().resolve(from.isPresent() ? destination : source);
        CopyProgress progress = new CopyProgress(console.err(), global.quiet || global.json);
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, global), SessionListener.NONE)) {
            SandboxFactory factory = use.factory();
            TransferSummary summary = SessionFileAccess.reportingBadPaths(() -> {
                SandboxFilesystem files = SessionFileAccess.files(factory, session.sessionId());
                return from.isPresent() ? files.copyOut(session.path(), host, progress) : files.copyIn(host, session.path(), progress);
            });
            if (global.json) {
                Map<String, Object> doc = new LinkedHashMap<>();
                doc.put("session", session.sessionId());
                doc.put("source", source);
                doc.put("destination", destination);
                doc.put("files", summary.files());
                doc.put("directories", summary.directories());
                doc.put("symlinks", summary.symlinks());
                doc.put("bytes", summary.bytes());
                Json.print(console, doc);
            } else if (!global.quiet) {
                console.err().printf("factory: copied %d file%s, %d director%s, %d link%s (%s) to %s%n",
                        summary.files(), summary.files() == 1 ? "" : "s",
                        summary.directories(), summary.directories() == 1 ? "y" : "ies",
                        summary.symlinks(), summary.symlinks() == 1 ? "" : "s",
                        CopyProgress.size(summary.bytes()), destination);
            }
            return ExitCodes.OK;
        }
    }
}
