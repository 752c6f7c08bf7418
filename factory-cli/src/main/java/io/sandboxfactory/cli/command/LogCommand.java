package io.sandboxfactory.cli.command;

import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.cli.session.SessionJournal;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.store.api.JournalEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.List;
import java.util.concurrent.Callable;

/** {@code factory log}: the command journal of a session. */
@Command(mixinStandardHelpOptions = true, name = "log",
        description = {"Show the commands run in a session, oldest first: when, from where (api, cli, daemon, mcp, setup, teardown),"
                + " exit code, duration and the command line; --json adds the last 4 KiB of each stream."},
        footerHeading = "%nExamples:%n", footer = {"  factory log fix-42", "  factory log fix-42 -n 5", "  factory --json log fix-42"})
public final class LogCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", paramLabel = "ID", description = "Session id.")
    String sessionId;

    @Option(names = {"-n", "--entries"}, paramLabel = "N", description = "Show the last N commands (default " + SessionJournal.DEFAULT_ENTRIES + ").")
    int entries = SessionJournal.DEFAULT_ENTRIES;

    @Override
    public Integer call() {
        if (entries < 1) {
            throw new BadInputException("-n " + entries + " is invalid; show at least 1 entry.");
        }
        Console console = root.console;
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, root.global), SessionListener.NONE)) {
            SandboxFactory factory = use.factory();
            List<JournalEntry> journal = SessionJournal.journal(factory, sessionId, entries);
            if (root.global.json) {
                Json.print(console, SessionJournal.document(sessionId, journal));
            } else {
                for (JournalEntry entry : journal) {
                    String end = entry.timedOut() ? "timeout " + entry.exitCode() : "exit " + entry.exitCode();
                    console.out().printf("%s  %-8s %-12s %8s  %s%n", entry.startedAt().toString().replace('T', ' '), entry.origin(), end,
                            seconds(entry.duration().toMillis()), entry.command().replace("\n", "; "));
                }
            }
            return ExitCodes.OK;
        }
    }

    private static String seconds(long millis) {
        return String.format(java.util.Locale.ROOT, "%.2fs", millis / 1000.0);
    }
}
