package io.sandboxfactory.cli.command;

import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.cli.ExitCodes;
import io.sandboxfactory.cli.FactoryCommand;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.cli.output.Json;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.retire.RetireResult;
import io.sandboxfactory.core.session.SessionListener;
import picocli.CommandLine.Command;
import picocli.CommandLine.ParentCommand;

import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code factory sweep}: remove orphaned sandboxes of the selected provider. */
@Command(mixinStandardHelpOptions = true, name = "sweep", description = {"Destroy the sessions of runs whose process died (killed before it could destroy them); never one whose run is alive, one opened with open, or another host's.",
        "Remove sandboxes of the selected provider whose session is unknown to the session store, or whose first open crashed (with that session's record), and the records of sessions whose first open crashed before it made a sandbox. Sessions that were ever handed to a user (running or stopped) are never touched by that.",
        "Then apply the idle policies of the config: destroy sessions idle longer than lifecycle.deleteAfterIdle, stop those idle longer than lifecycle.stopAfterIdle (both off unless set). A session with a command running is never idle."},
        footerHeading = "%nExamples:%n", footer = {"  factory sweep", "  factory --provider docker --json sweep"})
public final class SweepCommand implements Callable<Integer> {

    @ParentCommand
    FactoryCommand root;

    @Override
    public Integer call() {
        Console console = root.console;
        try (FactorySource.Use use = console.factories().use(new FactoryLauncher(console, root.global), SessionListener.NONE)) {
            SandboxFactory factory = use.factory();
            List<RetireResult> abandoned = factory.fleet().destroyAbandonedRuns();
            List<SandboxListing> removed = factory.fleet().sweep();
            List<String> forgotten = factory.fleet().forgetUnfinishedOpens();
            List<RetireResult> idle = factory.fleet().applyIdlePolicies();
            if (root.global.json) {
                Json.print(console, Map.of("abandonedRuns", outcomes(abandoned), "removed", removed.stream()
                        .map(l -> Map.of("session", l.sessionId(), "sandboxId", l.sandboxId())).toList(),
                        "unfinishedOpens", forgotten, "idle", outcomes(idle)));
            } else {
                abandoned.forEach(r -> console.out().println(r.describe() + " (its run's process died)"));
                for (SandboxListing listing : removed) {
                    console.out().println("removed " + listing.sessionId() + " (" + listing.sandboxId() + ")");
                }
                forgotten.forEach(id -> console.out().println("forgot " + id + " (its first open crashed)"));
                idle.forEach(r -> console.out().println(r.describe() + " (idle)"));
                console.err().println("factory: destroyed " + abandoned.size() + " session(s) of dead runs; swept " + removed.size()
                        + " orphaned sandbox(es); forgot " + forgotten.size() + " session(s) whose first open crashed; retired "
                        + idle.size() + " idle session(s)");
            }
            return abandoned.stream().anyMatch(RetireResult::failed) || idle.stream().anyMatch(RetireResult::failed)
                    ? ExitCodes.INFRASTRUCTURE : ExitCodes.OK;
        }
    }

    private static List<Map<String, Object>> outcomes(List<RetireResult> results) {
        return results.stream().map(r -> Map.<String, Object>of("session", r.sessionId(), "outcome", r.outcome().name().toLowerCase(java.util.Locale.ROOT),
                "problems", r.problems())).toList();
    }
}
