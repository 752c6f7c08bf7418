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
import io.sandboxfactory.cli.session.SessionJson;
import io.sandboxfactory.cli.session.SessionOptions;
import io.sandboxfactory.cli.session.StoredSessions;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.SessionFleet;
import io.sandboxfactory.core.config.DurationFormat;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.retire.RetireResult;
import io.sandboxfactory.core.retire.SessionSelector;
import io.sandboxfactory.core.session.SessionLabels;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.store.api.SessionRecord;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code factory retire}: teardown, then stop (default) or destroy one session, or every session a selector picks. */
@Command(mixinStandardHelpOptions = true, name = "retire",
        description = {"Retire sessions: run their teardown, then stop their sandbox (files kept) or, with --delete, destroy it and forget the session.",
                "Give one or more IDs, --all, or select sessions with --repo, --label and --idle (all must match); several are retired "
                        + "a few at a time and the exit code is 1 if any of them failed. One unknown ID is a no-op (exit 0); "
                        + "among several IDs, unknown ones are an error and nothing is retired. --dry-run lists what the same "
                        + "command would do, through the same checks."},
        footerHeading = "%nExamples:%n", footer = {"  factory retire fix-42", "  factory retire fix-42 fix-43 --delete",
                "  factory retire --label work-item=1234 --delete", "  factory retire --repo octo/app --idle 7d --dry-run",
                "  factory retire --all --dry-run"})
public final class RetireCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(arity = "0..*", paramLabel = "ID", description = "Session ids (or --all, or select sessions with --repo, --label, --idle).")
    List<String> sessionIds = new ArrayList<>();

    @Option(names = "--all", description = "Every session of the session store.")
    boolean all;

    @Option(names = "--delete", description = "Destroy the sandbox with its files and delete the session record.")
    boolean delete;

    @Option(names = "--repo", paramLabel = "R", description = "Select the sessions of this repository (as they were opened).")
    String repo;

    @Option(names = "--label", paramLabel = "KEY=VALUE", description = "Select the sessions carrying this label; repeatable (all must match).")
    List<String> labels = new ArrayList<>();

    @Option(names = "--idle", paramLabel = "D", description = "Select the sessions unused for at least D (30m, 7d, PT2H).")
    String idle;

    @Option(names = "--dry-run", description = "List what the command would do to each session (would retire, or would fail and why); retire nothing.")
    boolean dryRun;

    @Option(names = "--parallel", paramLabel = "N", description = "With several sessions: how many to retire at once (default "
            + SessionFleet.DEFAULT_RETIRE_PARALLELISM + ").")
    int parallel = SessionFleet.DEFAULT_RETIRE_PARALLELISM;

    @Override
    public Integer call() {
        Optional<SessionSelector> selector = selector();
        int ways = (selector.isPresent() ? 1 : 0) + (sessionIds.isEmpty() ? 0 : 1) + (all ? 1 : 0);
        if (ways != 1) {
            throw new BadInputException("Give 'factory retire' session IDs, --all or a selector (--repo, --label, --idle): "
                    + (ways == 0 ? "it was given none." : "exactly one of them, not several."));
        }
        if (parallel < 1) {
            throw new BadInputException("--parallel " + parallel + " is invalid; it must be at least 1.");
        }
        RetireMode mode = delete ? RetireMode.DESTROY : RetireMode.STOP;
        if (sessionIds.size() == 1 && !dryRun) {
            return retireOne(sessionIds.get(0), mode);
        }
        return retireSeveral(selector, mode);
    }

    private Optional<SessionSelector> selector() {
        List<SessionSelector> parts = new ArrayList<>();
        try {
            if (repo != null) {
                parts.add(SessionSelector.repository(SessionOptions.repository(repo, root.console.workingDirectory())));
            }
            for (String label : labels) {
                Map.Entry<String, String> pair = SessionLabels.parse(label);
                parts.add(SessionSelector.label(pair.getKey(), pair.getValue()));
            }
            if (idle != null) {
                parts.add(SessionSelector.idleFor(DurationFormat.parse(idle)));
            }
        } catch (IllegalArgumentException e) {
            throw new BadInputException(e.getMessage());
        }
        return parts.stream().reduce(SessionSelector::and);
    }

    private int retireOne(String sessionId, RetireMode mode) {
        Console console = root.console;
        PhaseReporter reporter = new PhaseReporter(console.err(), root.global.quiet || root.global.json);
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, root.global), new ProgressListener(reporter))) {
            SandboxFactory factory = use.factory();
            factory.sessionStore().find(sessionId).ifPresent(record -> StoredSessions.requireSameProvider(factory, record));
            reporter.begin((delete ? "destroying" : "stopping") + " session " + sessionId);
            RetireResult result = factory.retire(sessionId, mode);
            switch (result.outcome()) {
                case RETIRED -> reporter.done("retired");
                case UNKNOWN -> reporter.done(result.describe() + " in " + factory.stateDirectory() + "; nothing to retire");
                default -> reporter.done(result.describe());
            }
            if (root.global.json) {
                Map<String, Object> doc = SessionJson.retirement(result);
                doc.put("mode", mode.name().toLowerCase(java.util.Locale.ROOT));
                doc.put("phases", reporter.phases().stream().map(PhaseReporter.Phase::toJson).toList());
                Json.print(console, doc);
            } else if (result.failed() && root.global.quiet) {
                console.err().println("factory: " + result.describe());
            }
            return result.failed() ? ExitCodes.INFRASTRUCTURE : ExitCodes.OK;
        }
    }

    /** Several IDs, --all or a selector, or a dry run of any: the dry run and the real run pick and check the same way. */
    private int retireSeveral(Optional<SessionSelector> selector, RetireMode mode) {
        Console console = root.console;
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, root.global), SessionListener.NONE)) {
            SandboxFactory factory = use.factory();
            List<String> ids = all ? factory.sessionStore().list().stream().map(SessionRecord::sessionId).toList() : sessionIds.stream().distinct().toList();
            String what = selector.map(s -> "matching " + s).orElse(all ? "of the store" : "named");
            if (selector.isEmpty() && !all && ids.size() > 1) {
                requireKnown(factory, ids);
            }
            SessionFleet fleet = factory.fleet();
            List<RetireResult> results = dryRun
                    ? selector.map(fleet::planRetirement).orElseGet(() -> fleet.planRetirement(ids))
                    : selector.map(s -> fleet.retireAll(s, mode, parallel)).orElseGet(() -> fleet.retireEach(ids, mode, parallel));
            long failed = results.stream().filter(RetireResult::failed).count();
            if (root.global.json) {
                Json.print(console, results.stream().map(SessionJson::retirement).toList());
            } else {
                results.forEach(r -> console.out().println(dryRun && r.failed() ? "would fail: " + r.describe() : r.describe()));
                if (dryRun) {
                    console.err().println("factory: " + results.size() + " session(s) " + what + (failed > 0 ? ", " + failed
                            + " of which would fail" : "") + "; nothing retired (--dry-run)");
                } else if (!root.global.quiet) {
                    long retired = results.stream().filter(r -> r.outcome() == RetireResult.Outcome.RETIRED).count();
                    console.err().println("factory: retired " + retired + " of " + results.size() + " session(s) " + what
                            + (failed > 0 ? "; " + failed + " failed" : ""));
                }
            }
            return failed > 0 ? ExitCodes.INFRASTRUCTURE : ExitCodes.OK;
        }
    }

    /** Among several IDs an unknown one is a typo, not a no-op: nothing is retired. */
    private static void requireKnown(SandboxFactory factory, List<String> ids) {
        List<String> unknown = ids.stream().filter(id -> factory.sessionStore().find(id).isEmpty()).map(id -> "'" + id + "'").toList();
        if (!unknown.isEmpty()) {
            throw new BadInputException("No session " + String.join(", ", unknown) + " in " + factory.stateDirectory()
                    + "; nothing was retired ('factory list' shows the sessions).");
        }
    }
}
