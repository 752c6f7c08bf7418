package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.ExecutableSandbox;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxNotReadyException;
import io.sandboxfactory.api.SandboxStartEvent;
import io.sandboxfactory.api.SandboxStartHook;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.api.support.Sandboxes;
import io.sandboxfactory.core.internal.git.CheckoutState;
import io.sandboxfactory.core.internal.git.Freshness;
import io.sandboxfactory.core.internal.git.GitCredentials;
import io.sandboxfactory.core.internal.git.ObjectCache;
import io.sandboxfactory.core.internal.git.RepositoryMaterializer;
import io.sandboxfactory.core.internal.git.SessionBranch;
import io.sandboxfactory.core.internal.setup.LogText;
import io.sandboxfactory.core.internal.setup.SetupCommands;
import io.sandboxfactory.core.internal.setup.SetupGate;
import io.sandboxfactory.core.internal.setup.SetupMarkers;
import io.sandboxfactory.core.internal.setup.TeardownRunner;
import io.sandboxfactory.core.internal.store.SessionLeases;
import io.sandboxfactory.core.internal.template.TemplateInputs;
import io.sandboxfactory.core.internal.template.TemplateUse;
import io.sandboxfactory.core.session.SessionLayout;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.core.session.SessionRetiredException;
import io.sandboxfactory.core.setup.SetupCommandException;
import io.sandboxfactory.store.api.Fence;
import io.sandboxfactory.core.template.TemplateRejectedException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * The framework's start hook (design §5.4), run on every start of a session's sandbox:
 * <ol>
 *   <li>refuses if the session was retired since this sandbox instance was made (generation check),
 *       before and after the work;</li>
 *   <li>mints repository access and puts the token in the sandbox env overlay as {@code GH_TOKEN};</li>
 *   <li>probes the workspace in one command, materializes each repository and checks out the session branch;</li>
 *   <li>runs each setup unit the gate does not consider done, writes markers only after success,
 *       and after a failure runs the teardown and throws {@link SetupCommandException};</li>
 *   <li>persists the physical sandbox id and the workdir in the session store (also after a failed
 *       setup, which leaves the sandbox usable).</li>
 * </ol>
 * The whole hook holds the session's lease, so processes sharing a store never run it
 * concurrently for one session. All git and shell work goes through the start event's {@code exec()}.
 *
 * <p>An open of a session whose sandbox already runs in this process prepares it again through
 * {@link #prepareRunning}: the same steps on the running sandbox, so a later open with other setup
 * commands (or another branch) behaves as it would in a fresh process, whose open starts the sandbox.
 */
final class SessionStartHook implements SandboxStartHook {

    private static final Logger LOG = LoggerFactory.getLogger(SessionStartHook.class);
    /** Setup states of an environment's repositories, as the store keeps them for {@code status}. */
    public static final String SETUP_DONE = "done";
    public static final String SETUP_FAILED = "failed";

    private final String providerName;
    private final SessionPlan initialPlan;
    private final SessionServices services;
    private final long generation;
    private final Supplier<Optional<SessionEntry>> entry;
    private final Optional<String> requestedWorkdir;
    private final WorkspaceProbe probe;
    private final RepositoryMaterializer materializer;
    private final SessionBranch branches;
    private final Freshness freshness;
    private final SetupGate gate;
    /** The template this instance was made with, if any: used only by a start that created the sandbox. */
    private final Optional<TemplateUse> template;
    /** The host's object cache, for sandboxes that see the host's files; empty otherwise. */
    private final Optional<ObjectCache> objectCache;
    /** The phase whose command output is shown to the listener (clone, setup, teardown), and how to redact it. */
    private volatile SessionPhase currentPhase;
    private volatile UnaryOperator<String> outputRedaction = UnaryOperator.identity();
    /** This instance's memo entry, kept once seen: a start after its eviction must still ask it for admission. */
    private volatile SessionEntry ownEntry;
    /** The plan the latest preparation began with (identity: every open makes its own plan). */
    private volatile SessionPlan lastPlan;
    /** Set when the opener replaced this instance (its template failed): it never prepares the session again. */
    private volatile boolean replaced;
    /** Serializes preparations of the running sandbox by threads of this process (the lease is shared among them). */
    private final ReentrantLock preparations = new ReentrantLock();

    /**
     * @param plan what to prepare, unless the memo entry carries a newer plan
     * @param generation the session's generation when this sandbox instance was made
     * @param entry the sandbox's memo entry, where the plan is read and the resolved workdir memoized;
     *     empty once the entry was evicted
     * @param requestedWorkdir the session root to use when the sandbox reports none (else {@code pwd})
     */
    /**
     * @param providerName the name the provider was selected by, recorded with the session
     * @param template the template in the context this sandbox instance was made with
     * @param objectCache the host's git object cache, when the sandbox sees the host's files
     */
    public SessionStartHook(String providerName, SessionPlan plan, SessionServices services, long generation,
                            Supplier<Optional<SessionEntry>> entry, Optional<String> requestedWorkdir, Optional<TemplateUse> template,
                            Optional<ObjectCache> objectCache) {
        this.providerName = Objects.requireNonNull(providerName, "providerName");
        this.template = Objects.requireNonNull(template, "template");
        this.objectCache = Objects.requireNonNull(objectCache, "objectCache");
        this.initialPlan = Objects.requireNonNull(plan, "plan");
        this.services = Objects.requireNonNull(services, "services");
        this.generation = generation;
        this.entry = Objects.requireNonNull(entry, "entry");
        this.requestedWorkdir = Objects.requireNonNull(requestedWorkdir, "requestedWorkdir");
        SessionTimeouts timeouts = services.defaults().timeouts();
        this.probe = new WorkspaceProbe(timeouts.probe());
        this.materializer = new RepositoryMaterializer(services.defaults().retry(), timeouts.network(), providerName,
                services.defaults().gitIdentity());
        this.branches = new SessionBranch(timeouts.checkout());
        this.freshness = new Freshness(timeouts.checkout());
        this.gate = new SetupGate(services.store());
    }

    /** Attaches this hook to {@code sandbox}: it runs first, then whatever hook was there before. */
    public void attachTo(MastraSandbox<?> sandbox) {
        sandbox.setOnStart(previous -> event -> {
            onStart(event);
            previous.onStart(event);
        });
    }

    private String id() {
        return initialPlan.sessionId();
    }

    @Override
    public void onStart(SandboxStartEvent event) {
        template.ifPresent(TemplateUse::reached);
        admit();
        SessionPlan plan = entry.get().flatMap(SessionEntry::plan).orElse(initialPlan);
        prepare(plan, event.sandbox(), event.exec(), event.outcome());
    }

    /**
     * Prepares the running {@code sandbox} for {@code plan} as a start would: materialize, branch,
     * gates, store. A sandbox that stops meanwhile fails the preparation with {@link
     * SandboxNotReadyException} (its next start prepares it); commands never start it from here.
     */
    void prepareRunning(SessionPlan plan, MastraSandbox<?> sandbox) {
        preparations.lock();
        try {
            prepare(plan, sandbox, whileRunning(sandbox), StartOutcome.CONNECTED);
        } finally {
            preparations.unlock();
        }
    }

    /**
     * From now on every start of this hook's instance fails as a replaced one: the opener made a new
     * instance in its place, and an instance that never reached this hook has no memo entry to ask.
     */
    void refuseStarts() {
        replaced = true;
    }

    /** Whether the latest preparation was for exactly {@code plan} (a start that an open joined). */
    boolean preparedFor(SessionPlan plan) {
        return lastPlan == plan;
    }

    private void prepare(SessionPlan plan, ExecutableSandbox sandbox, CommandExecutor raw, StartOutcome outcome) {
        lastPlan = plan;
        CommandExecutor exec = observed(raw);
        try (InFlightStarts.Registration registration = services.inFlight().register(id(), generation)) {
            try (SessionLeases.Lease lease = services.leases().acquire(id(),
                    attempt -> phase(SessionPhase.WAITING_FOR_LEASE, "held by " + attempt.holder()),
                    () -> giveUpIfOvertaken(registration))) {
                requireCurrentGeneration();
                if (services.store().find(id()).isEmpty()) {
                    // A retirement deleted the record after this open registered it and read the new
                    // generation, then gave the lease up: this open comes after it and needs its record.
                    services.store().register(plan.definition(Optional.of(providerName)));
                }
                reportSandbox(sandbox, outcome);
                Optional<TemplateUse> madeFrom = outcome == StartOutcome.CREATED ? template : Optional.empty();
                madeFrom.ifPresent(use -> phase(SessionPhase.TEMPLATE, use.template().name()));
                run(plan, sandbox, exec, lease.fence(), madeFrom);
                requireCurrentGeneration();
            } catch (RuntimeException e) {
                if (registration.cancelled() || retired()) {
                    throw e instanceof SessionRetiredException ? e : new SessionRetiredException(id(), e);
                }
                throw e;
            }
        }
        phase(SessionPhase.READY, "");
    }

    private void reportSandbox(ExecutableSandbox sandbox, StartOutcome outcome) {
        String name = sandboxIdOf(sandbox).orElse(id());
        switch (outcome) {
            case CREATED -> phase(SessionPhase.SANDBOX_CREATED, name);
            case CONNECTED -> phase(SessionPhase.SANDBOX_RECONNECTED, name);
            case UNKNOWN -> { }
        }
    }

    private CommandExecutor whileRunning(MastraSandbox<?> sandbox) {
        return (command, args, options) -> {
            if (sandbox.status() != SandboxStatus.RUNNING) {
                throw new SandboxNotReadyException("The sandbox of session '" + id() + "' stopped while it was being prepared;"
                        + " its next start prepares it.");
            }
            return sandbox.executeCommand(command, args, options);
        };
    }

    private void run(SessionPlan plan, ExecutableSandbox sandbox, CommandExecutor exec, Fence fence, Optional<TemplateUse> madeFrom) {
        List<RepositoryAccess> access = plan.repositories().stream().map(r -> Objects.requireNonNull(r.access().mint(),
                () -> "The repository access source of '" + r.repository() + "' returned null")).toList();
        access.forEach(minted -> services.defaults().locator().requireAllowedCloneUrl(minted.cloneUrl()));
        UnaryOperator<String> redact = redactor(access);
        outputRedaction = redact;
        if (sandbox instanceof MastraSandbox<?> mastra) {
            applyOverlay(mastra, access.get(0));
        }

        phase(SessionPhase.PROBE, "");
        Optional<String> knownRoot = entry.get().flatMap(SessionEntry::workdir).or(() -> sandbox.workingDirectory())
                .or(() -> requestedWorkdir);
        List<String> repoDirs = plan.repositories().stream().map(SessionPlan.Repository::dir).toList();
        WorkspaceProbe.Result seen = probe.probe(exec, knownRoot, repoDirs);
        RepositoryMaterializer.requireGit(seen.gitVersion(), id());
        entry.get().ifPresent(e -> e.resolveWorkdir(seen.root()));
        SessionLayout layout = plan.layout(seen.root());

        List<String> standing = new ArrayList<>();
        String templateBase = "HEAD";
        for (int i = 0; i < plan.repositories().size(); i++) {
            SessionPlan.Repository repository = plan.repositories().get(i);
            SessionLayout.Checkout checkout = layout.repositories().get(i);
            CheckoutState state = seen.checkouts().get(i);
            boolean fetch = RepositoryMaterializer.keeps(state, access.get(i).cloneUrl());
            // Taken before the phase is reported: a mirror fetched after this open said it clones is fresh enough for it.
            Instant cloneAsked = Instant.now();
            phase(fetch ? SessionPhase.FETCH : SessionPhase.CLONE, access.get(i).cloneUrl());
            RepositoryAccess minted = access.get(i);
            Optional<String> reference = fetch ? Optional.empty() : objectCache.flatMap(cache -> cache.referenceFor(minted, cloneAsked));
            materializer.materialize(exec, checkout.path(), state, minted, reference);
            if (fetch && state.currentBranch().filter(plan.branch()::equals).isPresent()) {
                // The comparison's output is the factory's to parse, not git progress for the user to read.
                currentPhase = null;
                Freshness.Result fresh = state.upstream().isPresent() ? freshness.update(exec, checkout.path()) : Freshness.Result.NO_UPSTREAM;
                report(fresh, checkout);
                standing.add(plan.environment() ? checkout.repoDir() + ": " + fresh.describe() : fresh.describe());
                continue;
            }
            phase(SessionPhase.CHECKOUT, plan.branch());
            SessionBranch.Result branch = branches.checkout(exec, checkout.path(), plan.branch(), repository.baseBranch(), access.get(i));
            if (i == 0) {
                templateBase = repository.baseBranch().or(branch::resolvedBase).map(b -> "origin/" + b).orElse("HEAD");
            }
            if (i == 0 && !plan.environment()) {
                // Resolved once: later starts and processes create branches from the same base.
                branch.resolvedBase().ifPresent(base -> services.store().recordBaseBranch(id(), base));
            }
            branch.note().ifPresent(note -> phase(SessionPhase.BRANCH_KEPT, note));
        }
        requireCurrentGeneration();
        if (madeFrom.isPresent()) {
            requireFittingTemplate(madeFrom.get(), exec, layout.repositories().get(0).path(), templateBase);
        }
        if (!standing.isEmpty()) {
            services.store().recordFreshness(id(), String.join("; ", standing));
        }

        try {
            runSetup(plan, exec, seen, layout, redact, fence);
        } catch (SetupCommandException e) {
            // The sandbox stays usable after a failed setup: it is handed to the user all the same,
            // which is what the record's start state says (and what keeps a sweep away from it).
            services.store().recordStart(id(), sandboxIdOf(sandbox), seen.root(), Instant.now(), fence);
            throw e;
        }
        services.store().recordStart(id(), sandboxIdOf(sandbox), seen.root(), Instant.now(), fence);
    }

    /**
     * A template whose input files differ at the base from those it was built with does not serve
     * the session: the opener makes the sandbox again without it. Otherwise the entry records it.
     */
    private void requireFittingTemplate(TemplateUse use, CommandExecutor exec, String checkout, String base) {
        String now = TemplateInputs.hash(exec, checkout, base, use.inputs(), services.defaults().timeouts().probe());
        if (!now.equals(use.template().inputsHash())) {
            throw new TemplateRejectedException("Template " + use.template().name() + " was built from other " + use.inputs()
                    + " than " + base + " holds now.");
        }
        entry.get().ifPresent(e -> e.usedTemplate(use.template().name()));
    }

    private void report(Freshness.Result fresh, SessionLayout.Checkout checkout) {
        if (fresh.state() == Freshness.State.FAST_FORWARDED) {
            phase(SessionPhase.FAST_FORWARDED, fresh.describe());
        } else if (fresh.needsAttention()) {
            LOG.warn("Session '{}': {} is {}; it was left as it is.", id(), checkout.path(), fresh.describe());
            phase(SessionPhase.NOT_FAST_FORWARDED, fresh.describe());
        }
    }

    private void runSetup(SessionPlan plan, CommandExecutor exec, WorkspaceProbe.Result seen, SessionLayout layout, UnaryOperator<String> redact,
                          Fence fence) {
        Set<String> failedBefore = services.store().failedSetupCommands(id());
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
            SetupGate.Outcome outcome = runUnit(plan, exec, new SetupGate.Unit(label, setup, checkout.path(), done), failedBefore, redact, fence);
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
            services.store().recordSetupStates(id(), states, fence);
        }
        if (failure != null && plan.environment()) {
            failure = new SetupCommandException(failedNow, failure);
        }
        if (plan.environment() && failure == null) {
            SetupCommands workspace = plan.workspaceSetup();
            boolean done = allCheckoutsExisted
                    && seen.marker(SetupMarkers.WORKSPACE_SETUP).filter(workspace.markerContent()::equals).isPresent();
            SetupGate.Outcome outcome = runUnit(plan, exec, new SetupGate.Unit("workspace setup", workspace, layout.root(), done),
                    failedBefore, redact, fence);
            if (outcome.status() == SetupGate.Status.SUCCEEDED) {
                markerWrites.add(SetupMarkers.writeScript(markers.workspaceSetup(), workspace.markerContent()));
            }
            failure = outcome.failure().orElse(null);
        }
        if (plan.environment() && !failedDirs.equals(seen.setupFailed())) {
            markerWrites.add(markers.writeSetupFailedScript(failedDirs));
        }
        writeMarkers(exec, markerWrites, redact, fence);
        if (failure != null) {
            phase(SessionPhase.TEARDOWN, "after failed setup");
            for (SessionPlan.Teardown unit : plan.teardowns(layout)) {
                TeardownRunner.run(services.journal().recording(exec, id(), "teardown", unit.commands().text(), redact), id(), unit.label(),
                        unit.commands(), unit.directory(), services.defaults().timeouts().teardown(), redact);
            }
            throw failure;
        }
    }

    private SetupGate.Outcome runUnit(SessionPlan plan, CommandExecutor exec, SetupGate.Unit unit, Set<String> failedBefore, UnaryOperator<String> redact,
                                      Fence fence) {
        if (!unit.commands().isEmpty() && !unit.done()) {
            boolean skip = failedBefore.contains(unit.commands().text());
            phase(skip ? SessionPhase.SETUP_SKIPPED : unit.label().equals("workspace setup") ? SessionPhase.WORKSPACE_SETUP
                    : SessionPhase.SETUP, unit.label());
        }
        return gate.run(services.journal().recording(exec, id(), "setup", unit.commands().text(), redact), id(), unit, failedBefore,
                plan.setupTimeout(), redact, fence);
    }

    /**
     * Marker writes are not fatal: a lost marker only means the setup runs once more. An owner that
     * lost the lease writes none: the new owner's markers are the ones that count.
     */
    private void writeMarkers(CommandExecutor exec, List<String> writes, UnaryOperator<String> redact, Fence fence) {
        if (writes.isEmpty()) {
            return;
        }
        services.store().requireFence(id(), fence);
        try {
            CommandResult result = exec.executeCommand(String.join("\n", writes), List.of(),
                    CommandOptions.builder().timeout(services.defaults().timeouts().probe()).build());
            if (!result.success()) {
                LOG.warn("Writing the setup markers of session '{}' failed (exit {}); setup will run again on the next start: {}",
                        id(), result.exitCode(), LogText.abbreviate(redact.apply(result.stderr().strip())));
            }
        } catch (RuntimeException e) {
            LOG.warn("Writing the setup markers of session '{}' failed; setup will run again on the next start: {}", id(), e.getMessage());
        }
    }

    private static void applyOverlay(MastraSandbox<?> sandbox, RepositoryAccess access) {
        GitCredentials credentials = GitCredentials.of(access);
        sandbox.setEnv(env -> {
            env.keySet().removeAll(GitCredentials.overlayVariables());
            env.putAll(credentials.overlayEnv());
            return env;
        });
    }

    private static Optional<String> sandboxIdOf(ExecutableSandbox sandbox) {
        return sandbox instanceof MastraSandbox<?> mastra ? mastra.sandboxId() : Optional.empty();
    }

    /**
     * Refuses to start an instance that a revival replaced with a fresh one (a caller that still held
     * it would otherwise prepare the session's files alongside the fresh instance); the refusal is a
     * dead-sandbox error, so the caller's handle moves on to the fresh instance.
     */
    private void admit() {
        entry.get().ifPresent(seen -> ownEntry = seen);
        SessionEntry own = ownEntry;
        if (replaced || (own != null && !own.admitStart())) {
            throw new SandboxDestroyedException("The sandbox instance of session '" + id()
                    + "' was replaced by a fresh one after it was found gone; use the session's handle to reach the fresh one.");
        }
    }

    /**
     * While waiting for the lease: a retirement cancelled this start or evicted its sandbox (it
     * holds the lease to end that very sandbox, and would wait for this start forever).
     */
    private void giveUpIfOvertaken(InFlightStarts.Registration registration) {
        if (registration.cancelled() || entry.get().isEmpty()) {
            throw new SessionRetiredException(id());
        }
    }

    private boolean retired() {
        try {
            return services.store().generation(id()) != generation;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private void requireCurrentGeneration() {
        if (services.store().generation(id()) != generation) {
            throw new SessionRetiredException(id());
        }
    }

    private CommandExecutor observed(CommandExecutor exec) {
        return (command, args, options) -> {
            String line = Sandboxes.join(command, args);
            LOG.debug("Session '{}' runs: {}", id(), LogText.abbreviate(line));
            try {
                services.listener().onCommand(id(), line);
            } catch (RuntimeException e) {
                LOG.debug("Session listener failed: {}", e.toString());
            }
            return exec.executeCommand(command, args, streamed(options));
        };
    }

    /** Long phases show their commands' output (git progress, setup output) to the listener as it comes. */
    private CommandOptions streamed(CommandOptions options) {
        SessionPhase phase = currentPhase;
        if (phase == null || !phase.showsOutput()) {
            return options;
        }
        UnaryOperator<String> redact = outputRedaction;
        Consumer<String> forward = chunk -> services.output(id(), phase, redact.apply(chunk));
        return options.toBuilder()
                .onStdout(options.onStdout().map(own -> own.andThen(forward)).orElse(forward))
                .onStderr(options.onStderr().map(own -> own.andThen(forward)).orElse(forward))
                .build();
    }

    private void phase(SessionPhase phase, String detail) {
        currentPhase = phase;
        services.phase(id(), phase, detail);
    }

    private static UnaryOperator<String> redactor(List<RepositoryAccess> access) {
        List<String> tokens = access.stream().flatMap(a -> a.authorization().stream()).map(RepositoryAccess.Authorization::token).toList();
        return text -> {
            String out = text;
            for (String token : tokens) {
                out = out.replace(token, "***");
            }
            return out;
        };
    }
}
