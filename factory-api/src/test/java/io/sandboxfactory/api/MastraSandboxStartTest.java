package io.sandboxfactory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The start side of the {@link MastraSandbox} lifecycle: single flight, retries, the hook chain. */
class MastraSandboxStartTest {

    private static final int CALLERS = 100;

    @Test
    void concurrentStartsShareOneAcquisition() throws Exception {
        FakeSandbox sandbox = new FakeSandbox("s-many");
        Gate gate = new Gate();
        sandbox.findGate = gate;

        List<Spawned> callers = startTogether(sandbox, CALLERS);
        Thread owner = gate.awaitArrival();
        // Hold the acquisition until every other caller has joined it, so all really overlap.
        Spawned.awaitAllParkedIn(callers, owner, "start");
        gate.open();

        for (Spawned caller : callers) {
            caller.awaitSuccess();
        }
        assertThat(sandbox.finds).hasValue(1);
        assertThat(sandbox.creates).hasValue(1);
        assertThat(sandbox.connects).hasValue(0);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.RUNNING);
        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CREATED);
        assertThat(sandbox.sandboxId()).contains("phys-1");
    }

    @Test
    void concurrentStartsShareOneFailureInstance() throws Exception {
        FakeSandbox sandbox = new FakeSandbox("s-many-fail");
        Gate gate = new Gate();
        sandbox.findGate = gate;
        IllegalStateException cause = new IllegalStateException("engine unreachable");
        sandbox.nextFindFailure.set(cause);

        List<Spawned> callers = startTogether(sandbox, CALLERS);
        Thread owner = gate.awaitArrival();
        Spawned.awaitAllParkedIn(callers, owner, "start");
        gate.open();

        List<Throwable> failures = new ArrayList<>();
        for (Spawned caller : callers) {
            failures.add(caller.failure());
        }
        Throwable first = failures.get(0);
        assertThat(first).isInstanceOf(SandboxException.class)
                .hasMessage("Sandbox 's-many-fail' failed to start: engine unreachable")
                .hasCause(cause);
        assertThat(((SandboxException) first).code()).isEqualTo("START_FAILED");
        assertThat(failures).allSatisfy(f -> assertThat(f).isSameAs(first));
        assertThat(sandbox.finds).hasValue(1);
        assertThat(sandbox.creates).hasValue(0);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.ERROR);
    }

    @Test
    void failedStartIsNotLatched() {
        FakeSandbox sandbox = new FakeSandbox("s-retry");
        IOException diskFull = new IOException("disk full");
        sandbox.nextCreateFailure.set(diskFull);

        Throwable failure = catchThrowable(sandbox::start);

        assertThat(failure).isInstanceOf(SandboxException.class)
                .hasMessage("Sandbox 's-retry' failed to start: disk full")
                .hasCause(diskFull);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.ERROR);
        assertThat(sandbox.lastStartOutcome()).isEmpty();

        sandbox.start();

        assertThat(sandbox.status()).isEqualTo(SandboxStatus.RUNNING);
        assertThat(sandbox.creates).hasValue(2);
        assertThat(sandbox.finds).hasValue(2);
        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CREATED);
        assertThat(sandbox.sandboxId()).contains("phys-2");
    }

    @Test
    void startOnRunningSandboxReturnsWithoutAcquiringAgain() {
        FakeSandbox sandbox = new FakeSandbox("s-twice");
        AtomicInteger hookRuns = new AtomicInteger();
        sandbox.setOnStart(previous -> event -> hookRuns.incrementAndGet());

        sandbox.start();
        sandbox.start();

        assertThat(sandbox.finds).hasValue(1);
        assertThat(hookRuns).hasValue(1);
    }

    @Test
    void throwingStartHookFailsTheStartAndTheNextStartRunsItAgain() {
        FakeSandbox sandbox = new FakeSandbox("s-hook");
        IllegalStateException hookFailure = new IllegalStateException("setup exploded");
        List<StartOutcome> outcomes = new CopyOnWriteArrayList<>();
        sandbox.setOnStart(previous -> event -> {
            outcomes.add(event.outcome());
            if (outcomes.size() == 1) {
                throw hookFailure;
            }
        });

        Throwable failure = catchThrowable(sandbox::start);

        assertThat(failure).isExactlyInstanceOf(SandboxStartHookException.class)
                .hasMessage("Sandbox 's-hook' onStart hook failed: setup exploded")
                .hasCause(hookFailure);
        assertThat(((SandboxException) failure).code()).isEqualTo("START_HOOK_FAILED");
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.ERROR);

        sandbox.start();

        assertThat(sandbox.status()).isEqualTo(SandboxStatus.RUNNING);
        // The retry found the physical sandbox the failed start had created, and reconnected to it.
        assertThat(outcomes).containsExactly(StartOutcome.CREATED, StartOutcome.CONNECTED);
        assertThat(sandbox.creates).hasValue(1);
        assertThat(sandbox.connects).hasValue(1);
    }

    @Test
    void startHookFailureWithoutMessageIsNamedByItsType() {
        FakeSandbox sandbox = new FakeSandbox("s-hook-quiet");
        sandbox.setOnStart(previous -> event -> {
            throw new IOException();
        });

        assertThatThrownBy(sandbox::start)
                .isInstanceOf(SandboxStartHookException.class)
                .hasMessage("Sandbox 's-hook-quiet' onStart hook failed: java.io.IOException")
                .hasCauseExactlyInstanceOf(IOException.class);
    }

    @Test
    void laterWrapperRunsItsOwnWorkFirstThenThePreviousHook() {
        FakeSandbox sandbox = new FakeSandbox("s-chain");
        List<String> order = new CopyOnWriteArrayList<>();
        List<ExecutableSandbox> seen = new CopyOnWriteArrayList<>();
        sandbox.setOnStart(previous -> event -> {
            order.add("host");
            seen.add(event.sandbox());
            previous.onStart(event);
        });
        sandbox.setOnStart(previous -> event -> {
            order.add("framework");
            previous.onStart(event);
            order.add("framework after host");
        });

        sandbox.start();

        assertThat(order).containsExactly("framework", "host", "framework after host");
        assertThat(seen).containsExactly(sandbox);
    }

    @Test
    void startHookRunsOnEveryStartWithTheRightOutcome() {
        FakeSandbox sandbox = new FakeSandbox("s-every");
        List<StartOutcome> outcomes = new CopyOnWriteArrayList<>();
        sandbox.setOnStart(previous -> event -> outcomes.add(event.outcome()));

        sandbox.start();
        sandbox.stop();
        sandbox.start();

        assertThat(outcomes).containsExactly(StartOutcome.CREATED, StartOutcome.CONNECTED);
        assertThat(sandbox.events).containsExactly("find", "create", "stop phys-1", "find", "connect phys-1");
    }

    @Test
    void outsideCommandWaitsForTheHookWhileTheHooksOwnCommandsRunAtOnce() throws Exception {
        FakeSandbox sandbox = new FakeSandbox("s-gate");
        CountDownLatch hookCommandsDone = new CountDownLatch(1);
        CountDownLatch releaseHook = new CountDownLatch(1);
        sandbox.setOnStart(previous -> event -> {
            event.exec().executeCommand("echo", List.of("through exec"));
            sandbox.executeCommand("echo", List.of("through the sandbox"));
            sandbox.start(); // the hook's own thread: must not wait for itself
            hookCommandsDone.countDown();
            if (!releaseHook.await(Waits.SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("the test never released the hook");
            }
            sandbox.record("hook done");
        });

        Spawned starter = Spawned.start("starter", sandbox::start);
        Waits.await(hookCommandsDone, "the hook ran its own commands");
        Spawned outsider = Spawned.start("outsider", () -> sandbox.executeCommand("echo", List.of("from outside")));
        outsider.awaitParkedIn("executeCommand");

        assertThat(sandbox.commandLines()).containsExactly("echo 'through exec'", "echo 'through the sandbox'");
        assertThat(sandbox.executed).allSatisfy(e -> {
            assertThat(e.statusSeen()).isEqualTo(SandboxStatus.STARTING);
            assertThat(e.thread()).isSameAs(starter.thread());
        });
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STARTING);

        releaseHook.countDown();
        starter.awaitSuccess();
        outsider.awaitSuccess();

        assertThat(sandbox.events).containsExactly("find", "create", "exec echo 'through exec'",
                "exec echo 'through the sandbox'", "hook done", "exec echo 'from outside'");
        assertThat(sandbox.executed.get(2).statusSeen()).isEqualTo(SandboxStatus.RUNNING);
    }

    @Test
    void stopAndDestroyFromTheStartHookAreRefused() {
        FakeSandbox sandbox = new FakeSandbox("s-refuse");
        List<Throwable> refusals = new CopyOnWriteArrayList<>();
        sandbox.setOnStart(previous -> event -> {
            refusals.add(catchThrowable(sandbox::stop));
            refusals.add(catchThrowable(sandbox::destroy));
        });

        sandbox.start();

        assertThat(refusals).hasSize(2).allSatisfy(r -> assertThat(r).isInstanceOf(SandboxNotReadyException.class));
        assertThat(refusals.get(0)).hasMessage("Sandbox 's-refuse' cannot stop from its own onStart hook.");
        assertThat(refusals.get(1)).hasMessage("Sandbox 's-refuse' cannot destroy from its own onStart hook.");
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.RUNNING);
        assertThat(sandbox.stops).hasValue(0);
    }

    @Test
    void blankIdentityIsRejected() {
        assertThatThrownBy(() -> new FakeSandbox(" "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Sandbox id ' ' is invalid; it must not be blank.");
    }

    /** Starts {@code count} threads that call {@code start()} together, released by one barrier. */
    private static List<Spawned> startTogether(FakeSandbox sandbox, int count) {
        CyclicBarrier barrier = new CyclicBarrier(count);
        List<Spawned> callers = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            callers.add(Spawned.start("caller-" + i, () -> {
                barrier.await(Waits.SECONDS, TimeUnit.SECONDS);
                sandbox.start();
            }));
        }
        return callers;
    }
}
