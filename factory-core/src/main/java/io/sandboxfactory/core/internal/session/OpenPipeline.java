package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxNotReadyException;
import io.sandboxfactory.core.internal.store.SessionLeases;
import io.sandboxfactory.core.session.MaterializeException;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.core.session.SessionRetiredException;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.SetupCommandException;
import jakarta.inject.Inject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A session open, step by step (design §5; docs/architecture.md lists the same steps):
 * <ol>
 *   <li>{@link ValidateSpec validate} the spec and register the session;</li>
 *   <li>{@link GenerationCheck generation check}: the instance is made for the current generation,
 *       and no step goes on once a retirement moved it;</li>
 *   <li>{@link TakeLease lease}: one process at a time provisions and prepares the session;</li>
 *   <li>{@link AcquireSandbox acquire the sandbox}: the provider's start, whose first hook, the
 *       factory's {@link SessionStartHook}, runs {@link #prepare} with the start's own way into the sandbox;</li>
 *   <li>{@link ApplyEgress egress}: the proxy variables of a session in egress mode allowlist;</li>
 *   <li>{@link MaterializeRepositories materialize} the repositories;</li>
 *   <li>{@link CheckoutSessionBranch session branch};</li>
 *   <li>{@link RunSetupGates setup gate};</li>
 *   <li>{@link RecordStart record} the start in the store.</li>
 * </ol>
 * Steps 1–4 run on open as its start mode says (eager: now; background: on a thread of this
 * pipeline; lazy: at the first command, through {@link GuardedStart}); steps 5–9 run on every start
 * of the instance, whoever starts it, so a lazy start and a restart prepare the workspace too. When
 * the sandbox already runs here, an eager open prepares it again for its own plan. A start that
 * fails because of its template is opened again without one ({@link SessionTemplates}).
 */
final class OpenPipeline {

    private static final Logger LOG = LoggerFactory.getLogger(OpenPipeline.class);

    private final ValidateSpec validate;
    private final GenerationCheck generations;
    private final TakeLease lease;
    private final AcquireSandbox acquire;
    private final MaterializeRepositories materialize;
    private final ApplyEgress egress;
    private final CheckoutSessionBranch branch;
    private final RunSetupGates setup;
    private final RecordStart record;
    private final SandboxInstances instances;
    private final SessionTemplates templates;
    private final SessionRevival revival;
    private final GuardedStart starts;
    private final SessionServices services;
    private final SessionProvider provider;
    private final SessionMemo memo;
    private final ExecutorService background = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "session-background-start");
        t.setDaemon(true);
        return t;
    });

    private final StartFlights flights;

    @Inject
    OpenPipeline(ValidateSpec validate, GenerationCheck generations, TakeLease lease, AcquireSandbox acquire,
                 MaterializeRepositories materialize, CheckoutSessionBranch branch, RunSetupGates setup, RecordStart record,
                 SandboxInstances instances, SessionTemplates templates, SessionRevival revival, GuardedStart starts,
                 SessionServices services, SessionProvider provider, SessionMemo memo, ApplyEgress egress, StartFlights flights) {
        this.flights = flights;
        this.validate = validate;
        this.generations = generations;
        this.lease = lease;
        this.acquire = acquire;
        this.materialize = materialize;
        this.egress = egress;
        this.branch = branch;
        this.setup = setup;
        this.record = record;
        this.instances = instances;
        this.templates = templates;
        this.revival = revival;
        this.starts = starts;
        this.services = services;
        this.provider = provider;
        this.memo = memo;
    }

    /** Opens {@code spec}'s session (steps 1–4) and starts it as its start mode says. */
    OpenSessionHandle open(SessionSpec spec, boolean mayUseTemplate) {
        OpenRequest request = validate.validate(spec);
        long generation = generations.current(request.sessionId());
        SessionEntry entry = instances.entryFor(request, generation, mayUseTemplate);
        SessionPlan plan = request.plan();
        entry.plan(plan);
        entry.claimOwnRepo(plan.repositories().get(0).repository());
        plan.repositories().forEach(r -> entry.addRepo(r.repository()));
        revival.remember(entry, spec, generation);
        OpenSessionHandle handle = new OpenSessionHandle(entry, spec.startMode(), revival, starts, services.activity(), services.journal());
        switch (spec.startMode()) {
            case EAGER -> {
                try {
                    start(entry, plan);
                } catch (RuntimeException e) {
                    // The open without the template is a whole open of its own (auto-build included); this handle follows it.
                    templates.withoutTemplate(entry, e).orElseThrow(() -> e);
                    return handle;
                }
                generations.require(request.sessionId(), generation);
                templates.requestBuild(entry, spec, plan);
            }
            case BACKGROUND -> background.execute(() -> startInBackground(entry, plan));
            case LAZY -> { }
        }
        return handle;
    }

    /** Steps 3 and 4, or joining the same start under way ({@link StartFlights}). */
    private void start(SessionEntry entry, SessionPlan plan) {
        flights.startOrJoin(entry, plan, () -> startHoldingLease(entry, plan));
    }

    /** Steps 3 and 4: holding the lease, the provider's start (whose hook runs steps 5–8). */
    private void startHoldingLease(SessionEntry entry, SessionPlan plan) {
        String id = entry.sessionId();
        try (SessionLeases.Lease held = lease.take(id, () -> {
            // A retirement evicted this entry while we waited: starting it would revive a retired sandbox.
            if (memo.peek(id).filter(current -> current == entry).isEmpty()) {
                throw new SessionRetiredException(id);
            }
        })) {
            services.phase(id, SessionPhase.START, provider.name());
            acquire.acquire(entry);
            Optional<SessionStartHook> hook = instances.hookOf(entry.sandbox());
            if (hook.isPresent() && !hook.get().preparedFor(plan)) {
                try {
                    // Already running here: the start above was a no-op, so this open's plan is prepared now.
                    hook.get().prepareRunning(plan, entry.sandbox());
                } catch (SandboxNotReadyException | SandboxDestroyedException stopped) {
                    // Stopped or found gone meanwhile: its start prepares it (a fresh one if gone), with this open's plan.
                    acquire.acquire(entry);
                }
            }
        }
    }

    /** Steps 5–8 on one start of a session's sandbox; called by the factory's start hook. */
    void prepare(SessionStart start) {
        try (InFlightStarts.Registration registration = services.inFlight().register(start.id(), start.generation())) {
            try (SessionLeases.Lease held = lease.take(start.id(), () -> giveUpIfOvertaken(start, registration))) {
                generations.require(start.id(), start.generation());
                registerIfDeleted(start);
                reportSandbox(start);
                start.madeFrom().ifPresent(use -> start.phase(SessionPhase.TEMPLATE, use.template().name()));
                egress.apply(start);
                PreparedWorkspace workspace = materialize.materialize(start, held.fence());
                branch.checkout(start, workspace);
                try {
                    setup.run(start, workspace);
                } catch (SetupCommandException e) {
                    // The sandbox stays usable after a failed setup: it is handed to the user all the same,
                    // which is what the record's start state says (and what keeps a sweep away from it).
                    record.record(start, workspace);
                    throw e;
                }
                record.record(start, workspace);
                generations.require(start.id(), start.generation());
            } catch (RuntimeException thrown) {
                RuntimeException e = redacted(thrown, start);
                if (registration.cancelled() || generations.retiredSince(start.id(), start.generation())) {
                    throw e instanceof SessionRetiredException ? e : new SessionRetiredException(start.id(), e);
                }
                throw e;
            }
        }
        start.phase(SessionPhase.READY, "");
    }

    /**
     * {@code e}, its message masked with the start's secrets: a clone's or checkout's failure quotes
     * git's output, which may show a token (a remote that echoes it back, a token-shaped path). A
     * setup's failure is masked where it is made ({@link RunSetupGates}).
     */
    private static RuntimeException redacted(RuntimeException e, SessionStart start) {
        if (e instanceof MaterializeException failure) {
            String message = start.redaction().apply(failure.getMessage());
            if (!message.equals(failure.getMessage())) {
                MaterializeException masked = new MaterializeException(failure.errorCode(), message);
                masked.setStackTrace(failure.getStackTrace());
                return masked;
            }
        }
        return e;
    }

    private void startInBackground(SessionEntry entry, SessionPlan plan) {
        String id = entry.sessionId();
        try {
            start(entry, plan);
        } catch (RuntimeException e) {
            try {
                if (templates.withoutTemplate(entry, e).isPresent()) {
                    return;
                }
            } catch (RuntimeException again) {
                LOG.warn("Background start of session '{}' without its template failed: {}", id, again.getMessage());
                return;
            }
            LOG.warn("Background start of session '{}' failed: {}", id, e.getMessage());
        }
    }

    /**
     * A retirement deleted the record after this open registered it and read the new generation,
     * then gave the lease up: this open comes after it and needs its record.
     */
    private void registerIfDeleted(SessionStart start) {
        if (services.store().find(start.id()).isEmpty()) {
            services.store().register(start.plan().definition(Optional.of(provider.name())));
        }
    }

    private static void reportSandbox(SessionStart start) {
        String name = start.sandboxId().orElse(start.id());
        switch (start.outcome()) {
            case CREATED -> start.phase(SessionPhase.SANDBOX_CREATED, name);
            case CONNECTED -> start.phase(SessionPhase.SANDBOX_RECONNECTED, name);
            case UNKNOWN -> { }
        }
    }

    /**
     * While waiting for the lease: a retirement cancelled this start or evicted its sandbox (it
     * holds the lease to end that very sandbox, and would wait for this start forever).
     */
    private static void giveUpIfOvertaken(SessionStart start, InFlightStarts.Registration registration) {
        if (registration.cancelled() || start.entry().isEmpty()) {
            throw new SessionRetiredException(start.id());
        }
    }

    /** Stops background starts that have not begun; running ones finish. */
    void stopBackgroundStarts() {
        background.shutdown();
    }
}
