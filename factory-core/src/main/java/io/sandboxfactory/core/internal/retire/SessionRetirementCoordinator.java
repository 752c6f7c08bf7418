package io.sandboxfactory.core.internal.retire;

import io.sandboxfactory.core.session.Redaction;
import jakarta.inject.Inject;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.core.internal.session.SessionEntry;
import io.sandboxfactory.core.internal.session.SessionMemo;
import io.sandboxfactory.core.internal.session.SessionPlan;
import io.sandboxfactory.core.internal.session.SessionServices;
import io.sandboxfactory.core.internal.setup.LogText;
import io.sandboxfactory.core.internal.setup.TeardownRunner;
import io.sandboxfactory.core.internal.store.SessionLeases;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.store.api.Fence;
import io.sandboxfactory.store.api.SessionRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.UnaryOperator;

/**
 * Retires sessions (design §5.8). Calls for one session are serialized: a second call waits for
 * the first, and a failure of one never blocks the next. A retirement
 * <ol>
 *   <li>bumps the session's generation, so work that captured the old one — an open in flight,
 *       here or in another process — fails with {@code Session '<id>' was retired during workspace
 *       materialization}, and cancels starts of the session running in this factory;</li>
 *   <li>takes the session's lease exclusively for the remaining steps: it waits for an open in
 *       flight, here or in another process, to give up (it watches the generation) before it ends
 *       the sandbox, and opens that come after it wait until it is done;</li>
 *   <li>if this process holds the sandbox: runs the teardown when the workdir is resolved and the
 *       sandbox is running (failures logged), <em>evicts first</em>, then stops or destroys it;
 *       otherwise stops or destroys the physical sandbox the provider finds, provisioning nothing;</li>
 *   <li>always runs the session's host-cache invalidation callbacks;</li>
 *   <li>with {@code deleteSession}, deletes the session record.</li>
 * </ol>
 * Every failure along the way is logged (long output abbreviated) and the remaining steps still run.
 * Evicting also forgets the session's failed setup commands, so a reopened session retries its setup.
 */
public final class SessionRetirementCoordinator {

    private static final Logger LOG = LoggerFactory.getLogger(SessionRetirementCoordinator.class);

    private final SessionMemo memo;
    private final FactorySandbox provider;
    private final SessionServices services;
    private final Map<String, CountedLock> locks = new ConcurrentHashMap<>();
    private final Map<String, List<Runnable>> invalidations = new ConcurrentHashMap<>();

    private static final class CountedLock {
        final ReentrantLock lock = new ReentrantLock(true);
        int users;
    }

    @Inject
    public SessionRetirementCoordinator(SessionMemo memo, FactorySandbox provider, SessionServices services) {
        this.memo = Objects.requireNonNull(memo, "memo");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.services = Objects.requireNonNull(services, "services");
        memo.addEvictionListener((sessionId, evicted) -> services.store().clearFailedSetupCommands(sessionId));
    }

    /**
     * Registers {@code callback} to run on every retirement of {@code sessionId} (to drop host
     * caches of the session). Returns a handle that unregisters it.
     */
    public Runnable onInvalidate(String sessionId, Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        List<Runnable> callbacks = invalidations.computeIfAbsent(SessionSpec.requireValidSessionId(sessionId),
                id -> new CopyOnWriteArrayList<>());
        callbacks.add(callback);
        return () -> callbacks.remove(callback);
    }

    /**
     * Retires {@code sessionId}: teardown, then stop ({@code deleteSession=false}) or destroy and
     * forget. Returns the steps that failed, one sentence each (the others still ran).
     */
    public List<String> retire(String sessionId, boolean deleteSession) {
        SessionSpec.requireValidSessionId(sessionId);
        CountedLock lock = locks.compute(sessionId, (id, current) -> {
            CountedLock l = current == null ? new CountedLock() : current;
            l.users++;
            return l;
        });
        lock.lock.lock();
        try {
            List<String> problems = new ArrayList<>();
            retireLocked(sessionId, deleteSession, problems);
            return problems;
        } finally {
            lock.lock.unlock();
            locks.compute(sessionId, (id, current) -> current == null || --current.users == 0 ? null : current);
        }
    }

    private void retireLocked(String sessionId, boolean deleteSession, List<String> problems) {
        String verb = deleteSession ? "destroy" : "stop";
        LOG.info("Retiring session '{}' ({})", sessionId, verb);
        step(problems, sessionId, "bump the generation", () -> services.store().bumpGeneration(sessionId));
        int cancelled = services.inFlight().cancel(sessionId);
        if (cancelled > 0) {
            LOG.info("Cancelled {} start(s) of session '{}' in flight", cancelled, sessionId);
        }
        // An open in flight holds the lease; it sees the new generation (or, here, its cancellation)
        // and gives up soon. Ending the sandbox before that would let its commands (a clone's mkdir -p)
        // bring the session directory back after the destroy, or a new open here work in a directory
        // being deleted; exclusively, so opens here that come after wait for the end of this.
        SessionLeases.Lease lease = null;
        try {
            lease = services.leases().acquireExclusive(sessionId,
                    attempt -> services.phase(sessionId, SessionPhase.WAITING_FOR_LEASE, "held by " + attempt.holder()));
        } catch (RuntimeException e) {
            LOG.warn("Retiring session '{}' without its lease: {}", sessionId, LogText.abbreviate(String.valueOf(e.getMessage())));
        }
        try {
            endLocked(sessionId, deleteSession, verb, problems, lease == null ? Fence.NONE : lease.fence());
        } finally {
            if (lease != null) {
                lease.close();
            }
        }
    }

    private void endLocked(String sessionId, boolean deleteSession, String verb, List<String> problems, Fence fence) {
        Optional<SessionEntry> held = memo.peek(sessionId);
        if (held.isPresent()) {
            SessionEntry entry = held.get();
            teardown(entry);
            step(problems, sessionId, "evict the session", () -> memo.evict(sessionId));
            step(problems, sessionId, verb + " the sandbox", () -> end(entry.sandbox(), deleteSession));
        } else {
            step(problems, sessionId, "evict the session", () -> memo.evict(sessionId));
            step(problems, sessionId, verb + " the sandbox", () -> end(unstartedInstance(sessionId), deleteSession));
        }
        for (Runnable callback : invalidations.getOrDefault(sessionId, List.of())) {
            step(problems, sessionId, "run a cache invalidation callback", callback);
        }
        if (deleteSession) {
            step(problems, sessionId, "delete the session record", () -> services.store().delete(sessionId, fence));
        }
    }

    private void teardown(SessionEntry entry) {
        MastraSandbox<?> sandbox = entry.sandbox();
        Optional<SessionPlan> plan = entry.plan();
        if (plan.isEmpty() || !plan.get().hasTeardown()) {
            return;
        }
        if (entry.workdir().isEmpty() || sandbox.status() != SandboxStatus.RUNNING) {
            LOG.info("Skipping the teardown of session '{}': its sandbox is {} and its workdir {}.", entry.sessionId(),
                    sandbox.status(), entry.workdir().map(w -> "is " + w).orElse("was never resolved"));
            return;
        }
        services.phase(entry.sessionId(), SessionPhase.TEARDOWN, entry.workdir().get());
        // Teardown output may echo the session's token (it is in the command environment): redact it.
        UnaryOperator<String> redact = Redaction.ofEnvironment(sandbox.getEnv());
        for (SessionPlan.Teardown unit : plan.get().teardowns(plan.get().layout(entry.workdir().get()))) {
            TeardownRunner.run(services.journal().recording(sandbox, entry.sessionId(), "teardown", unit.commands().text(), redact),
                    entry.sessionId(), unit.label(), unit.commands(), unit.directory(),
                    services.defaults().timeouts().teardown(), redact);
        }
    }

    /** A fresh instance whose stop/destroy acts on the physical sandbox the provider finds, if any. */
    private MastraSandbox<?> unstartedInstance(String sessionId) {
        Optional<SessionRecord> record = services.store().find(sessionId);
        FactorySandboxContext.Builder ctx = FactorySandboxContext.builder(sessionId);
        record.ifPresent(r -> ctx.repoFullName(r.definition().repository()));
        record.flatMap(SessionRecord::sandboxId).ifPresent(ctx::sandboxId);
        return provider.create(ctx.build());
    }

    private static void end(MastraSandbox<?> sandbox, boolean destroy) {
        if (destroy) {
            sandbox.destroy();
        } else {
            sandbox.stop();
        }
    }

    private static void step(List<String> problems, String sessionId, String what, Runnable action) {
        try {
            action.run();
        } catch (RuntimeException e) {
            String why = LogText.abbreviate(String.valueOf(e.getMessage()));
            LOG.warn("Retiring session '{}': could not {}: {}", sessionId, what, why);
            problems.add("could not " + what + ": " + why);
        }
    }
}
