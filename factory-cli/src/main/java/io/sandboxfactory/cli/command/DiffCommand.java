package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.cli.session.SessionDiff;
import io.sandboxfactory.cli.session.StoredSessions;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.store.api.SessionRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.function.Consumer;

/** {@code factory diff}: what a session changed against its base. */
@Command(mixinStandardHelpOptions = true, name = "diff",
        description = {"Show what a session changed against its base branch: committed and uncommitted changes since the merge base,"
                + " as a patch on stdout (an environment's repositories as one patch, paths from the workspace root).",
                "Untracked files are listed on stderr (in the JSON document with --json)."},
        footerHeading = "%nExamples:%n",
        footer = {"  factory diff fix-42", "  factory diff fix-42 --stat", "  factory diff fix-42 > fix-42.patch", "  factory --json diff fix-42"})
public final class DiffCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", paramLabel = "ID", description = "Session id.")
    String sessionId;

    @Option(names = "--stat", description = "Only the changed files with their added and deleted line counts.")
    boolean stat;

    @Override
    public Integer call() {
        Console console = root.console;
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, root.global), SessionListener.NONE)) {
            SandboxFactory factory = use.factory();
            SessionRecord record = StoredSessions.record(factory, sessionId);
            SessionHandle handle = StoredSessions.resume(factory, record);
            SessionDiff diff = new SessionDiff(handle, record);
            if (root.global.json) {
                Optional<SessionDiff.HeadText> patch = stat ? Optional.empty() : Optional.of(new SessionDiff.HeadText(Integer.MAX_VALUE));
                List<SessionDiff.Checkout> checkouts = diff.checkouts(patch.<Consumer<String>>map(p -> p));
                Json.print(console, SessionDiff.json(sessionId, checkouts, patch));
                return ExitCodes.OK;
            }
            List<SessionDiff.Checkout> checkouts = diff.checkouts(stat ? Optional.empty() : Optional.of(console.out()::print));
            for (SessionDiff.Checkout checkout : checkouts) {
                String prefix = checkout.dir().isEmpty() ? "" : checkout.dir() + "/";
                if (stat) {
                    for (SessionDiff.Change change : checkout.files()) {
                        console.out().printf("%7s %7s  %s%n", change.added().map(n -> "+" + n).orElse("bin"),
                                change.deleted().map(n -> "-" + n).orElse("bin"), prefix + change.path());
                    }
                }
                for (String untracked : checkout.untracked()) {
                    (stat ? console.out() : console.err()).println((stat ? "      ?          ?  " : "factory: untracked: ") + prefix + untracked);
                }
            }
            console.out().flush();
            return ExitCodes.OK;
        }
    }
}
