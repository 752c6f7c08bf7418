package io.sandboxfactory.tck;

import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxStartEvent;
import io.sandboxfactory.api.SandboxStartHookException;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.api.StartOutcome;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static io.sandboxfactory.tck.ContractRule.HOOK_FAILURE;
import static io.sandboxfactory.tck.ContractRule.START_HOOKS;
import static io.sandboxfactory.tck.ContractRule.START_SINGLE_FLIGHT;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** start() is single-flight, runs the hook chain in order, fails on a hook failure and retries next time. */
abstract class StartCases {

    private static final int THREADS = 8;

    abstract ContractBench bench();

    @Test
    @DisplayName("concurrent start() calls join one start: one acquisition, one hook run")
    void concurrentStartsCoalesce() throws Exception {
        String session = bench().newSessionId("coalesce");
        MastraSandbox<?> sandbox = bench().create(session);
        AtomicInteger hookRuns = new AtomicInteger();
        sandbox.setOnStart(previous -> event -> {
            hookRuns.incrementAndGet();
            previous.onStart(event);
        });

        CountDownLatch ready = new CountDownLatch(THREADS);
        CountDownLatch go = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        List<Future<?>> starts = new ArrayList<>();
        try {
            for (int i = 0; i < THREADS; i++) {
                starts.add(pool.submit(() -> {
                    ready.countDown();
                    go.await();
                    sandbox.start();
                    return null;
                }));
            }
            ready.await();
            go.countDown();
            for (Future<?> start : starts) {
                START_SINGLE_FLIGHT.attempt(THREADS + " concurrent start() calls on session '" + session + "'",
                        () -> start.get(ContractBench.PROBE_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        START_SINGLE_FLIGHT.requireEquals(1, hookRuns.get(), "the number of start hook runs for " + THREADS + " concurrent start() calls");
        START_SINGLE_FLIGHT.requireEquals(SandboxStatus.RUNNING, sandbox.status(), "the status after concurrent start() calls");
        START_SINGLE_FLIGHT.requireEquals(StartOutcome.CREATED, sandbox.lastStartOutcome().orElse(null),
                "the outcome of the one start of a new session");
        int listed = bench().listingsOf(session).size();
        START_SINGLE_FLIGHT.require(bench().inventory().isEmpty() || listed == 1,
                () -> "listSandboxes() shows " + listed + " sandboxes of session '" + session + "' after concurrent start() calls");

        sandbox.start();
        START_SINGLE_FLIGHT.requireEquals(1, hookRuns.get(), "the number of hook runs after start() on a running sandbox");
    }

    @Test
    @DisplayName("the framework's hook wraps the host's and runs first; the event carries the sandbox and outcome")
    void hooksWrapInOrder() {
        String session = bench().newSessionId("hooks");
        MastraSandbox<?> sandbox = bench().create(session);
        List<String> order = Collections.synchronizedList(new ArrayList<>());
        List<SandboxStartEvent> events = Collections.synchronizedList(new ArrayList<>());
        sandbox.setOnStart(previous -> event -> {
            order.add("host");
            events.add(event);
            previous.onStart(event);
        });
        sandbox.setOnStart(previous -> event -> {
            order.add("framework");
            previous.onStart(event);
        });

        START_HOOKS.perform("starting session '" + session + "'", sandbox::start);

        START_HOOKS.requireEquals(List.of("framework", "host"), List.copyOf(order), "the order the start hooks ran in");
        START_HOOKS.require(events.get(0).sandbox() == sandbox, () -> "the start event carries another sandbox than the one started");
        START_HOOKS.requireEquals(StartOutcome.CREATED, events.get(0).outcome(), "the outcome in the start event of a new session");
    }

    @Test
    @DisplayName("a start hook runs commands through exec() and through the sandbox itself, without deadlock")
    void hookCommandsRunDuringStart() {
        assumeExec();
        String session = bench().newSessionId("hookexec");
        MastraSandbox<?> sandbox = bench().create(session);
        List<String> seen = Collections.synchronizedList(new ArrayList<>());
        sandbox.setOnStart(previous -> event -> {
            CommandResult written = event.exec().executeCommand("printf %s from-hook > tck-hook.txt");
            seen.add(written.exitCode() + ":" + written.stderr().strip());
            CommandResult read = event.sandbox().executeCommand("cat tck-hook.txt");
            seen.add(read.exitCode() + ":" + read.stdout());
            previous.onStart(event);
        });

        START_HOOKS.perform("starting session '" + session + "' with a hook that runs commands", sandbox::start);

        START_HOOKS.requireEquals(List.of("0:", "0:from-hook"), List.copyOf(seen),
                "the exit codes and output of the hook's commands (exec(), then the sandbox's own executeCommand)");
    }

    @Test
    @DisplayName("a command from another thread waits for the whole start, hooks included")
    void commandsWaitForTheWholeStart() throws Exception {
        assumeExec();
        String session = bench().newSessionId("waits");
        MastraSandbox<?> sandbox = bench().create(session);
        CountDownLatch hookEntered = new CountDownLatch(1);
        CountDownLatch releaseHook = new CountDownLatch(1);
        sandbox.setOnStart(previous -> event -> {
            hookEntered.countDown();
            releaseHook.await(ContractBench.PROBE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            CommandResult written = event.exec().executeCommand("printf %s hook-done > tck-start.txt");
            if (!written.success()) {
                throw new IllegalStateException("the hook's command exited with " + written.exitCode() + ": " + written.stderr());
            }
            previous.onStart(event);
        });
        CompletableFuture<Void> start = CompletableFuture.runAsync(sandbox::start);
        try {
            START_HOOKS.require(hookEntered.await(ContractBench.PROBE_TIMEOUT.toSeconds(), TimeUnit.SECONDS),
                    () -> "the start hook of session '" + session + "' did not run");
            CompletableFuture<CommandResult> command = new CompletableFuture<>();
            Thread caller = new Thread(() -> {
                try {
                    command.complete(ContractBench.run(sandbox, "cat tck-start.txt 2>/dev/null || printf not-yet"));
                } catch (RuntimeException e) {
                    command.completeExceptionally(e);
                }
            }, "tck-waiting-command");
            caller.start();
            awaitBlocked(caller, command);
            releaseHook.countDown();

            CommandResult result = START_HOOKS.attempt("the command sent while session '" + session + "' was starting",
                    () -> command.get(ContractBench.PROBE_TIMEOUT.toSeconds(), TimeUnit.SECONDS));
            START_HOOKS.require(result.stdout().equals("hook-done"), () -> "a command sent while the start hook was running "
                    + "ran before the hook finished (it read '" + result.stdout() + "'); executeCommand must wait for the whole start");
        } finally {
            releaseHook.countDown();
            // Only waits: a failed start already showed in the command's result.
            start.handle((done, failure) -> null).get(ContractBench.PROBE_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        }
    }

    /** Waits until {@code caller} blocks (it joined the start) or its command finished (it did not wait). */
    private static void awaitBlocked(Thread caller, CompletableFuture<?> command) throws InterruptedException {
        for (int i = 0; i < 6000 && !command.isDone(); i++) {
            Thread.State state = caller.getState();
            if (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING || state == Thread.State.BLOCKED) {
                return;
            }
            Thread.sleep(10);
        }
    }

    @Test
    @DisplayName("a failing start hook fails the start with SandboxStartHookException and ERROR; the next start retries")
    void hookFailureFailsTheStartAndIsNotLatched() {
        String session = bench().newSessionId("hookfail");
        MastraSandbox<?> sandbox = bench().create(session);
        AtomicInteger hookRuns = new AtomicInteger();
        IllegalStateException planned = new IllegalStateException("tck: planned hook failure");
        sandbox.setOnStart(previous -> event -> {
            if (hookRuns.incrementAndGet() == 1) {
                throw planned;
            }
            previous.onStart(event);
        });

        RuntimeException failure = null;
        try {
            sandbox.start();
        } catch (RuntimeException e) {
            failure = e;
        }
        RuntimeException thrown = failure;
        HOOK_FAILURE.require(thrown instanceof SandboxStartHookException, () -> "start() with a failing hook "
                + (thrown == null ? "returned normally" : "threw " + thrown.getClass().getName() + ": " + thrown.getMessage())
                + ", expected SandboxStartHookException");
        HOOK_FAILURE.requireEquals("Sandbox '" + session + "' onStart hook failed: tck: planned hook failure", thrown.getMessage(),
                "the message of the start failure");
        HOOK_FAILURE.require(thrown.getCause() == planned, () -> "the start failure does not carry the hook's exception as its cause");
        HOOK_FAILURE.requireEquals(SandboxStatus.ERROR, sandbox.status(), "the status after a failed start hook");

        HOOK_FAILURE.perform("the second start() of session '" + session + "' after a failed hook", sandbox::start);
        HOOK_FAILURE.requireEquals(2, hookRuns.get(), "the number of hook runs after a failed start and a retry");
        HOOK_FAILURE.requireEquals(SandboxStatus.RUNNING, sandbox.status(), "the status after the retried start");
    }

    private void assumeExec() {
    }
}
