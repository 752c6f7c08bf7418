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
import io.sandboxfactory.core.config.DurationFormat;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.retire.RetireResult;
import io.sandboxfactory.core.retire.SessionSelector;
import io.sandboxfactory.core.session.SessionLabels;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.store.SessionRecord;
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
        description = {"Retire a session: run its teardown, then stop its sandbox (files kept) or, with --delete, destroy it and forget the session.",
                "With --repo, --label or --idle instead of an ID, retire every session they all match, several at a time; "
                        + "the exit code is 1 if any of them failed. An unknown ID is a no-op (exit 0)."},
        footerHeading = "%nExamples:%n", footer = {"  factory retire fix-42", "  factory retire fix-42 --delete",
                "  factory retire --label work-item=1234 --delete", "  factory retire --repo octo/app --idle 7d --dry-run"})
public final class RetireCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Parameters(index = "0", arity = "0..1", paramLabel = "ID", description = "Session id (or select sessions with --repo, --label, --idle).")
    String sessionId;

    @Option(names = "--delete", description = "Destroy the sandbox with its files and delete the session record.")
    boolean delete;

    @Option(names = "--repo", paramLabel = "R", description = "Select the sessions of this repository (as they were opened).")
    String repo;

    @Option(names = "--label", paramLabel = "KEY=VALUE", description = "Select the sessions carrying this label; repeatable (all must match).")
    List<String> labels = new ArrayList<>();

    @Option(names = "--idle", paramLabel = "D", description = "Select the sessions unused for at least D (30m, 7d, PT2H).")
    String idle;

    @Option(names = "--dry-run", description = "With a selector: list the sessions it picks and retire nothing.")
    boolean dryRun;

    @Option(names = "--parallel", paramLabel = "N", description = "With a selector: how many sessions to retire at once (default "
            + SandboxFactory.DEFAULT_RETIRE_PARALLELISM + ").")
    int parallel = SandboxFactory.DEFAULT_RETIRE_PARALLELISM;

    @Override
    public Integer call() {
        Optional<SessionSelector> selector = selector();
        if (selector.isPresent() == (sessionId != null)) {
            throw new BadInputException("Give either a session ID or a selector (--repo, --label, --idle) to 'factory retire', not "
                    + (sessionId == null ? "neither." : "both."));
        }
        if (dryRun && selector.isEmpty()) {
            throw new BadInputException("--dry-run lists what a selector (--repo, --label, --idle) picks; it needs one.");
        }
        RetireMode mode = delete ? RetireMode.DESTROY : RetireMode.STOP;
        return selector.isPresent() ? retireSelected(selector.get(), mode) : retireOne(mode);
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

    private int retireOne(RetireMode mode) {
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
                case FAILED -> reporter.done(result.describe());
            }
            if (root.global.json) {
                Map<String, Object> doc = SessionJson.retirement(result);
                doc.put("mode", mode.name().toLowerCase(java.util.Locale.ROOT));
                doc.put("phases", reporter.phases().stream().map(PhaseReporter.Phase::toJson).toList());
                Json.print(console.out(), doc);
            } else if (result.failed() && root.global.quiet) {
                console.err().println("factory: " + result.describe());
            }
            return result.failed() ? ExitCodes.INFRASTRUCTURE : ExitCodes.OK;
        }
    }

    private int retireSelected(SessionSelector selector, RetireMode mode) {
        Console console = root.console;
        if (parallel < 1) {
            throw new BadInputException("--parallel " + parallel + " is invalid; it must be at least 1.");
        }
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, root.global), SessionListener.NONE)) {
            SandboxFactory factory = use.factory();
            if (dryRun) {
                List<SessionRecord> picked = factory.selectSessions(selector);
                if (root.global.json) {
                    Json.print(console.out(), picked.stream().map(r -> Map.of("session", r.sessionId(), "outcome", "WOULD_RETIRE")).toList());
                } else {
                    picked.forEach(r -> console.out().println("would retire " + r.sessionId()));
                    console.err().println("factory: " + picked.size() + " session(s) match " + selector + "; nothing retired (--dry-run)");
                }
                return ExitCodes.OK;
            }
            List<RetireResult> results = factory.retireAll(selector, mode, parallel);
            long failed = results.stream().filter(RetireResult::failed).count();
            if (root.global.json) {
                Json.print(console.out(), results.stream().map(SessionJson::retirement).toList());
            } else {
                results.forEach(r -> console.out().println(r.describe()));
                if (!root.global.quiet) {
                    console.err().println("factory: retired " + (results.size() - failed) + " of " + results.size()
                            + " session(s) matching " + selector + (failed > 0 ? "; " + failed + " failed" : ""));
                }
            }
            return failed > 0 ? ExitCodes.INFRASTRUCTURE : ExitCodes.OK;
        }
    }
}
