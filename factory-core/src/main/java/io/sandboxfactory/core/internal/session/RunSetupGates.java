package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.core.internal.git.CheckoutState;
import io.sandboxfactory.core.internal.setup.LogText;
import io.sandboxfactory.core.internal.setup.SetupCommands;
import io.sandboxfactory.core.internal.setup.SetupGate;
import io.sandboxfactory.core.internal.setup.SetupMarkers;
import io.sandboxfactory.core.internal.setup.TeardownRunner;
import io.sandboxfactory.core.session.SessionLayout;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.core.session.SetupCommandException;
import jakarta.inject.Inject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Pipeline step: setup gate. Runs each setup unit the gate does not consider done (each
 * repository's in its checkout, then an environment's workspace setup in the root), writes the
 * markers only after success, and after a failure runs the teardown and throws {@link
 * SetupCommandException}. An environment's per-repository states go to the store for {@code status}.
 */
final class RunSetupGates {

    private static final Logger LOG = LoggerFactory.getLogger(RunSetupGates.class);
    /** Setup states of an environment's repositories, as the store keeps them for {@code status}. */
    static final String SETUP_DONE = "done";
    static final String SETUP_FAILED = "failed";

    private final SessionServices services;
    private final SetupGate gate;

    @Inject
    RunSetupGates(SessionServices services, SetupGate gate) {
        this.services = Objects.requireNonNull(services, "services");
        this.gate = Objects.requireNonNull(gate, "gate");
    }

    void run(SessionStart start, PreparedWorkspace workspace) {
        SessionPlan plan = start.plan();
        WorkspaceProbe.Result seen = workspace.seen();
        SessionLayout layout = workspace.layout();
        Set<String> failedBefore = services.store().failedSetupCommands(start.id());
        SetupMarkers markers = SetupMarkers.of(layout);
        List<String> markerWrites = new ArrayList<>();
        Set<String> failedDirs = new LinkedHashSet<>(seen.setupFailed());
        SetupCommandException failure = null;
        List<String> failedNow = new ArrayList<>();
        Map<String, String> states = new LinkedHashMap<>();
        boolean allCheckoutsExisted = seen.checkouts().stream().allMatch(CheckoutState::gitDirectory);

        for (int i = 0; i < plan.repositories().size(); i++) {
            SetupCommands setup = plan.repositories().get(i).setup();
            SessionLayout.Checkout checkout = layout.repositories().get(i);
            String markerName = plan.environment() ? SetupMarkers.REPOS + "/" + checkout.repoDir() : SetupMarkers.SETUP;
            boolean done = seen.checkouts().get(i).gitDirectory()
                    && seen.marker(markerName).filter(setup.markerContent()::equals).isPresent()
                    && !(plan.environment() && seen.setupFailed().contains(checkout.repoDir()));
            String label = plan.environment() ? "setup of " + checkout.repoDir() : "setup";
            SetupGate.Outcome outcome = runUnit(start, workspace, new SetupGate.Unit(label, setup, checkout.path(), done), failedBefore);
            switch (outcome.status()) {
                case SUCCEEDED -> {
                    markerWrites.add(SetupMarkers.writeScript(markers.directory() + "/" + markerName, setup.markerContent()));
                    failedDirs.remove(checkout.repoDir());
                }
                case FAILED -> {
                    failedDirs.add(checkout.repoDir());
                    failedNow.add(checkout.repoDir());
                    failure = failure == null ? outcome.failure().orElseThrow() : failure;
                }
                default -> { }
            }
            boolean failed = outcome.status() == SetupGate.Status.FAILED || outcome.status() == SetupGate.Status.SKIPPED_AFTER_FAILURE;
            states.put(checkout.repoDir(), failed ? SETUP_FAILED : SETUP_DONE);
        }
        if (plan.environment()) {
            services.store().recordSetupStates(start.id(), states, workspace.fence());
        }
        if (failure != null && plan.environment()) {
            failure = new SetupCommandException(failedNow, failure);
        }
        if (plan.environment() && failure == null) {
            SetupCommands workspaceSetup = plan.workspaceSetup();
            boolean done = allCheckoutsExisted
                    && seen.marker(SetupMarkers.WORKSPACE_SETUP).filter(workspaceSetup.markerContent()::equals).isPresent();
            SetupGate.Outcome outcome = runUnit(start, workspace, new SetupGate.Unit("workspace setup", workspaceSetup, layout.root(), done),
                    failedBefore);
            if (outcome.status() == SetupGate.Status.SUCCEEDED) {
                markerWrites.add(SetupMarkers.writeScript(markers.workspaceSetup(), workspaceSetup.markerContent()));
            }
            failure = outcome.failure().orElse(null);
        }
        if (plan.environment() && !failedDirs.equals(seen.setupFailed())) {
            markerWrites.add(markers.writeSetupFailedScript(failedDirs));
        }
        writeMarkers(start, markerWrites, workspace);
        if (failure != null) {
            start.phase(SessionPhase.TEARDOWN, "after failed setup");
            for (SessionPlan.Teardown unit : plan.teardowns(layout)) {
                TeardownRunner.run(services.journal().recording(start.exec(), start.id(), "teardown", unit.commands().text(), start.redaction()),
                        start.id(), unit.label(), unit.commands(), unit.directory(), services.defaults().timeouts().teardown(), start.redaction());
            }
            throw failure;
        }
    }

    private SetupGate.Outcome runUnit(SessionStart start, PreparedWorkspace workspace, SetupGate.Unit unit, Set<String> failedBefore) {
        if (!unit.commands().isEmpty() && !unit.done()) {
            boolean skip = failedBefore.contains(unit.commands().text());
            start.phase(skip ? SessionPhase.SETUP_SKIPPED : unit.label().equals("workspace setup") ? SessionPhase.WORKSPACE_SETUP
                    : SessionPhase.SETUP, unit.label());
        }
        return gate.run(services.journal().recording(start.exec(), start.id(), "setup", unit.commands().text(), start.redaction()),
                start.id(), unit, failedBefore, start.plan().setupTimeout(), start.plan().setupSecrets(), start.redaction(), workspace.fence());
    }

    /**
     * Marker writes are not fatal: a lost marker only means the setup runs once more. An owner that
     * lost the lease writes none: the new owner's markers are the ones that count.
     */
    private void writeMarkers(SessionStart start, List<String> writes, PreparedWorkspace workspace) {
        if (writes.isEmpty()) {
            return;
        }
        services.store().requireFence(start.id(), workspace.fence());
        try {
            CommandResult result = start.exec().executeCommand(String.join("\n", writes), List.of(),
                    CommandOptions.builder().timeout(services.defaults().timeouts().probe()).build());
            if (!result.success()) {
                LOG.warn("Writing the setup markers of session '{}' failed (exit {}); setup will run again on the next start: {}",
                        start.id(), result.exitCode(), LogText.abbreviate(start.redaction().apply(result.stderr().strip())));
            }
        } catch (RuntimeException e) {
            LOG.warn("Writing the setup markers of session '{}' failed; setup will run again on the next start: {}", start.id(),
                    e.getMessage());
        }
    }
}
