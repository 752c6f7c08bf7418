package io.sandboxfactory.core.internal.retire;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.capability.SandboxInventory;
import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.core.config.Lifecycle;
import io.sandboxfactory.core.internal.gateway.GitGateway;
import io.sandboxfactory.core.internal.session.EgressChannels;
import io.sandboxfactory.core.internal.session.CommandActivity;
import io.sandboxfactory.core.internal.session.SessionMemo;
import io.sandboxfactory.core.internal.setup.LogText;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.retire.RetireResult;
import io.sandboxfactory.core.retire.SessionSelector;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.store.api.SessionRecord;
import io.sandboxfactory.store.api.SessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * Retires sessions the way a host means it, from any process (design §5.8, §5.13): a session the
 * store knows is retired through the {@link SessionRetirementCoordinator} with its teardown — one
 * that does not run here is started first (a warm start) when it has teardown commands and its
 * sandbox still exists; a session nobody knows is a no-op that says so and touches no sandbox a
 * provider may find under that name (that is {@code sweep}'s job). Bulk retirements select
 * sessions from the store and retire each the same way, a bounded number at a time.
 */
public final class Retirements {

    private static final Logger LOG = LoggerFactory.getLogger(Retirements.class);

    /** How many sessions a bulk retirement retires at once, unless told otherwise. */
    public static final int DEFAULT_PARALLELISM = 8;

    private final SessionRetirementCoordinator coordinator;
    private final SessionStore store;
    private final SessionMemo memo;
    private final String providerName;
    private final FactorySandbox provider;
    private final Function<SessionSpec, SessionHandle> open;
    private final CommandActivity activity;
    private final Lifecycle lifecycle;
    private final Clock clock;
    private final GitGateway gateway;
    private final EgressChannels egressChannels;

    /**
     * @param open opens a session as {@code SandboxFactory.openSession} does
     * @param activity the sessions running commands in this factory (never idle)
     * @param lifecycle the idle policies {@link #applyIdlePolicies} applies
     */
    public Retirements(SessionRetirementCoordinator coordinator, SessionStore store, SessionMemo memo, String providerName,
                       FactorySandbox provider, Function<SessionSpec, SessionHandle> open, CommandActivity activity, Lifecycle lifecycle, Clock clock,
                       GitGateway gateway, EgressChannels egressChannels) {
        this.gateway = Objects.requireNonNull(gateway, "gateway");
        this.egressChannels = Objects.requireNonNull(egressChannels, "egressChannels");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.store = Objects.requireNonNull(store, "store");
        this.memo = Objects.requireNonNull(memo, "memo");
        this.providerName = Objects.requireNonNull(providerName, "providerName");
        this.provider = Objects.requireNonNull(provider, "provider");
        this.open = Objects.requireNonNull(open, "open");
        this.activity = Objects.requireNonNull(activity, "activity");
        this.lifecycle = Objects.requireNonNull(lifecycle, "lifecycle");
        this.clock = Objects.requireNonNull(clock, "clock");
    }

    /** Retires {@code sessionId}; never throws for the retirement itself, the result says how it went. */
    public RetireResult retire(String sessionId, RetireMode mode) {
        return retire(sessionId, mode, this::listedSandboxes);
    }

    /** @param listed which sessions' sandboxes the provider lists; asked only for a session with teardown commands */
    private RetireResult retire(String sessionId, RetireMode mode, Supplier<Predicate<String>> listed) {
        SessionSpec.requireValidSessionId(sessionId);
        Objects.requireNonNull(mode, "mode");
        Optional<SessionRecord> record = store.find(sessionId);
        boolean heldHere = memo.peek(sessionId).isPresent();
        if (record.isEmpty() && !heldHere) {
            LOG.info("No session '{}' to retire: neither the session store nor this factory knows it.", sessionId);
            return new RetireResult(sessionId, RetireResult.Outcome.UNKNOWN, List.of());
        }
        Optional<String> refusal = record.flatMap(this::refusal);
        if (refusal.isPresent()) {
            return new RetireResult(sessionId, RetireResult.Outcome.FAILED, List.of(refusal.get()));
        }
        if (!heldHere) {
            startForTeardown(record.get(), listed);
        }
        List<String> problems = coordinator.retire(sessionId, mode.deletesSession());
        // After the teardown (which may still push): the session's capability ends with it.
        gateway.revoke(sessionId, mode.deletesSession());
        if (mode.deletesSession()) {
            egressChannels.remove(sessionId);
        }
        if (mode == RetireMode.STOP && problems.isEmpty()) {
            // The start for the teardown is not a use: an idle session stays as idle as it was.
            record.ifPresent(r -> store.recordUse(sessionId, r.lastUsedAt(), Optional.empty()));
            store.recordStopped(sessionId, clock.instant());
        }
        return new RetireResult(sessionId, problems.isEmpty() ? RetireResult.Outcome.RETIRED : RetireResult.Outcome.FAILED, problems);
    }

    /**
     * The sessions {@code selector} picks now, in session id order; with an idle time, never one
     * running a command here nor the session of a {@code run} whose process is still alive.
     */
    public List<SessionRecord> select(SessionSelector selector) {
        Objects.requireNonNull(selector, "selector");
        return store.list().stream().filter(record -> selector.matches(record, clock.instant()))
                .filter(record -> selector.idleFor().isEmpty() || !inUse(record)).toList();
    }

    private boolean inUse(SessionRecord record) {
        return activity.running(record.sessionId())
                || record.definition().ephemeralOwner().filter(owner -> !owner.isProvablyGone()).isPresent();
    }

    /**
     * What {@link #retireAll} would do to each session {@code selector} picks, changing nothing: a
     * dry run goes through the same selection and the same refusals as the real run.
     */
    public List<RetireResult> plan(SessionSelector selector) {
        return plan(select(selector));
    }

    /** What {@link #retireEach} would do to each of {@code sessionIds}, changing nothing. */
    public List<RetireResult> planEach(List<String> sessionIds) {
        List<RetireResult> results = new ArrayList<>();
        for (String id : sessionIds) {
            Optional<SessionRecord> record = store.find(SessionSpec.requireValidSessionId(id));
            results.add(record.map(r -> plan(List.of(r)).get(0)).orElseGet(() -> memo.peek(id).isPresent()
                    ? new RetireResult(id, RetireResult.Outcome.WOULD_RETIRE, List.of())
                    : new RetireResult(id, RetireResult.Outcome.UNKNOWN, List.of())));
        }
        return results;
    }

    private List<RetireResult> plan(List<SessionRecord> records) {
        return records.stream().map(record -> refusal(record)
                .map(why -> new RetireResult(record.sessionId(), RetireResult.Outcome.FAILED, List.of(why)))
                .orElseGet(() -> new RetireResult(record.sessionId(), RetireResult.Outcome.WOULD_RETIRE, List.of()))).toList();
    }

    /** Why retiring {@code record}'s session here fails before it touches anything, if it does. */
    private Optional<String> refusal(SessionRecord record) {
        return record.definition().provider().filter(p -> !p.equals(providerName))
                .map(other -> "it runs on provider '" + other + "', not '" + providerName + "'; retire it with that provider");
    }

    /**
     * Applies {@code lifecycle.deleteAfterIdle} (destroys sessions idle that long) and then {@code
     * lifecycle.stopAfterIdle} (stops running sessions idle that long); either may be off. Results of both, in that order.
     */
    public List<RetireResult> applyIdlePolicies() {
        List<RetireResult> results = new ArrayList<>();
        lifecycle.deleteAfterIdle().ifPresent(idle -> results.addAll(retireAll(SessionSelector.idleFor(idle), RetireMode.DESTROY,
                DEFAULT_PARALLELISM, record -> true)));
        lifecycle.stopAfterIdle().ifPresent(idle -> results.addAll(retireAll(SessionSelector.idleFor(idle), RetireMode.STOP,
                DEFAULT_PARALLELISM, record -> record.stoppedAt().isEmpty())));
        return results;
    }

    /**
     * Destroys the ephemeral sessions of {@code run}s whose process is provably gone (it died before it
     * could destroy them; see {@code SessionDefinition.ephemeralOwner}). Never one of another host
     * (never provably gone from here), of a live process (a {@code run} in progress, the daemon that
     * runs it), one held by this factory, nor one a later {@code open} claimed (that clears the owner).
     * The owner is judged again right before each retirement, so an open that claimed the session
     * since is left alone. Results in session id order.
     */
    public List<RetireResult> destroyAbandonedRuns() {
        List<RetireResult> results = new ArrayList<>();
        for (SessionRecord record : store.list()) {
            if (abandonedRun(record.sessionId())) {
                results.add(retire(record.sessionId(), RetireMode.DESTROY));
            }
        }
        return results;
    }

    private boolean abandonedRun(String sessionId) {
        return memo.peek(sessionId).isEmpty() && store.find(sessionId)
                .filter(r -> r.definition().provider().map(providerName::equals).orElse(true))
                .flatMap(r -> r.definition().ephemeralOwner()).filter(HostProcess::isProvablyGone).isPresent();
    }

    /**
     * Retires every session {@code selector} picks, at most {@code parallelism} at once, each as
     * {@link #retire} does; one that fails does not stop the others. Results are in session id order.
     */
    public List<RetireResult> retireAll(SessionSelector selector, RetireMode mode, int parallelism) {
        return retireAll(selector, mode, parallelism, record -> true);
    }

    private List<RetireResult> retireAll(SessionSelector selector, RetireMode mode, int parallelism, Predicate<SessionRecord> also) {
        RetirementBatch.requireParallelism(parallelism);
        return retireEach(select(selector).stream().filter(also).map(SessionRecord::sessionId).toList(), mode, parallelism);
    }

    /**
     * Retires each of {@code sessionIds}, at most {@code parallelism} at once, each as {@link
     * #retire} does (an unknown one is a no-op that says so); results in the order given.
     */
    public List<RetireResult> retireEach(List<String> sessionIds, RetireMode mode, int parallelism) {
        RetirementBatch.requireParallelism(parallelism);
        List<String> selected = sessionIds.stream().map(SessionSpec::requireValidSessionId).toList();
        if (selected.isEmpty()) {
            return List.of();
        }
        // One inventory listing for the whole batch, not one per session.
        Predicate<String> listed = listedSandboxes();
        return RetirementBatch.run(selected, parallelism, id -> retire(id, mode, () -> listed));
    }

    /**
     * Teardown runs in the sandbox, so a session that does not run here is started first (a warm
     * start: no clone, no setup) when it has teardown commands and its sandbox still exists.
     */
    private void startForTeardown(SessionRecord record, Supplier<Predicate<String>> listed) {
        String id = record.sessionId();
        boolean hasTeardown = !record.definition().teardownCommands().isEmpty() || record.definition().environment()
                .filter(env -> !env.workspaceTeardown().isEmpty() || env.repositories().stream().anyMatch(r -> !r.teardownCommands().isEmpty()))
                .isPresent();
        if (!hasTeardown || !listed.get().test(id)) {
            return;
        }
        try {
            open.apply(SessionSpec.resume(record.definition()).build()).awaitStarted();
        } catch (RuntimeException e) {
            LOG.warn("Session '{}' could not be started, so its teardown is skipped: {}", id, LogText.abbreviate(String.valueOf(e.getMessage())));
        }
    }

    /** The sessions whose sandbox the provider lists; every session when it cannot tell (no inventory, or the listing failed). */
    private Predicate<String> listedSandboxes() {
        if (!(provider instanceof SandboxInventory inventory)) {
            return sessionId -> true;
        }
        try {
            Set<String> listed = inventory.listSandboxes().stream().map(SandboxListing::sessionId).collect(Collectors.toSet());
            return listed::contains;
        } catch (RuntimeException e) {
            return sessionId -> true;
        }
    }
}
