package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.ExecutableSandbox;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxNotReadyException;
import io.sandboxfactory.api.SandboxStartEvent;
import io.sandboxfactory.api.SandboxStartHook;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.core.internal.template.TemplateUse;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Supplier;

/**
 * The factory's start hook on one sandbox instance: an adapter that hands each start of the
 * instance to the {@link OpenPipeline}'s workspace steps (materialize, session branch, setup gate,
 * record) with the start's own way into the sandbox. It runs first in the hook chain, so a host's
 * own start hook runs after the factory's setup on every start.
 *
 * <p>An open of a session whose sandbox already runs here prepares it again through {@link
 * #prepareRunning}: the same steps on the running sandbox, so a later open with other setup
 * commands (or another branch) behaves as it would in a fresh process, whose open starts the sandbox.
 */
final class SessionStartHook implements SandboxStartHook {

    private final OpenPipeline pipeline;
    private final SessionServices services;
    private final SessionPlan initialPlan;
    private final long generation;
    private final Supplier<Optional<SessionEntry>> entry;
    private final Optional<String> requestedWorkdir;
    /** The template this instance was made with, if any: used only by a start that created the sandbox. */
    private final Optional<TemplateUse> template;
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
     * @param template the template in the context this sandbox instance was made with
     */
    SessionStartHook(OpenPipeline pipeline, SessionServices services, SessionPlan plan, long generation,
                     Supplier<Optional<SessionEntry>> entry, Optional<String> requestedWorkdir, Optional<TemplateUse> template) {
        this.pipeline = Objects.requireNonNull(pipeline, "pipeline");
        this.services = Objects.requireNonNull(services, "services");
        this.initialPlan = Objects.requireNonNull(plan, "plan");
        this.generation = generation;
        this.entry = Objects.requireNonNull(entry, "entry");
        this.requestedWorkdir = Objects.requireNonNull(requestedWorkdir, "requestedWorkdir");
        this.template = Objects.requireNonNull(template, "template");
    }

    /** Attaches this hook to {@code sandbox}: it runs first, then whatever hook was there before. */
    void attachTo(MastraSandbox<?> sandbox) {
        sandbox.setOnStart(previous -> event -> {
            onStart(event);
            previous.onStart(event);
        });
    }

    @Override
    public void onStart(SandboxStartEvent event) {
        template.ifPresent(TemplateUse::reached);
        admit();
        SessionPlan plan = entry.get().flatMap(SessionEntry::plan).orElse(initialPlan);
        prepare(plan, event.sandbox(), event.exec(), event.outcome());
    }

    /**
     * Prepares the running {@code sandbox} for {@code plan} as a start would. A sandbox that stops
     * meanwhile fails the preparation with {@link SandboxNotReadyException} (its next start prepares
     * it); commands never start it from here.
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

    private void prepare(SessionPlan plan, ExecutableSandbox sandbox, CommandExecutor exec, StartOutcome outcome) {
        lastPlan = plan;
        Optional<TemplateUse> madeFrom = outcome == StartOutcome.CREATED ? template : Optional.empty();
        pipeline.prepare(new SessionStart(plan, generation, sandbox, exec, outcome, madeFrom, entry, requestedWorkdir, services));
    }

    private CommandExecutor whileRunning(MastraSandbox<?> sandbox) {
        return (command, args, options) -> {
            if (sandbox.status() != SandboxStatus.RUNNING) {
                throw new SandboxNotReadyException("The sandbox of session '" + initialPlan.sessionId() + "' stopped while it was being"
                        + " prepared; its next start prepares it.");
            }
            return sandbox.executeCommand(command, args, options);
        };
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
            throw new SandboxDestroyedException("The sandbox instance of session '" + initialPlan.sessionId()
                    + "' was replaced by a fresh one after it was found gone; use the session's handle to reach the fresh one.");
        }
    }
}
