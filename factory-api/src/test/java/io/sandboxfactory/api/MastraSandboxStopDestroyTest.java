package io.sandboxfactory.api;

import io.sandboxfactory.api.support.Sandboxes;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/** The end side of the {@link MastraSandbox} lifecycle: stop, destroy, and what they leave behind. */
class MastraSandboxStopDestroyTest {

    private static final Duration DEADLOCK_GUARD = Duration.ofSeconds(Waits.SECONDS);
    private static final int CALLERS = 10;

    @Test
    void repeatedStopStopsOnce() {
        FakeSandbox sandbox = new FakeSandbox("s-stop");
        sandbox.start();

        sandbox.stop();
        sandbox.stop();

        assertThat(sandbox.stops).hasValue(1);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);
    }

    @Test
    void concurrentStopsAreCoalesced() throws Exception {
        FakeSandbox sandbox = new FakeSandbox("s-stop-many");
        sandbox.start();
        Gate gate = new Gate();
        sandbox.stopGate = gate;

        List<Spawned> callers = spawn(CALLERS, "stopper", sandbox::stop);
        Thread owner = gate.awaitArrival();
        Spawned.awaitAllParkedIn(callers, owner, "stop");
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPING);
        gate.open();

        for (Spawned caller : callers) {
            caller.awaitSuccess();
        }
        assertThat(sandbox.stops).hasValue(1);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);
    }

    @Test
    void concurrentDestroysAreCoalescedAndRepeatsDoNothing() throws Exception {
        FakeSandbox sandbox = new FakeSandbox("s-destroy-many");
        sandbox.start();
        Gate gate = new Gate();
        sandbox.destroyGate = gate;

        List<Spawned> callers = spawn(CALLERS, "destroyer", sandbox::destroy);
        Thread owner = gate.awaitArrival();
        Spawned.awaitAllParkedIn(callers, owner, "destroy");
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.DESTROYING);
        gate.open();

        for (Spawned caller : callers) {
            caller.awaitSuccess();
        }
        sandbox.destroy();
        sandbox.stop();

        assertThat(sandbox.destroys).hasValue(1);
        assertThat(sandbox.stops).hasValue(0);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.DESTROYED);
        assertThat(sandbox.physical).hasValue(null);
    }

    @Test
    void stopDuringAnInFlightStartWaitsForItThenStops() throws Exception {
        FakeSandbox sandbox = new FakeSandbox("s-stop-mid-start");
        Gate gate = new Gate();
        sandbox.findGate = gate;

        Spawned starter = Spawned.start("starter", sandbox::start);
        gate.awaitArrival();
        Spawned stopper = Spawned.start("stopper", sandbox::stop);
        stopper.awaitParkedIn("stop");

        assertThat(sandbox.stops).hasValue(0);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STARTING);
        gate.open();

        starter.awaitSuccess();
        stopper.awaitSuccess();
        assertThat(sandbox.events).containsExactly("find", "create", "stop phys-1");
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);
    }

    @Test
    void destroyDuringAnInFlightStartWaitsForItThenDestroys() throws Exception {
        FakeSandbox sandbox = new FakeSandbox("s-destroy-mid-start");
        Gate gate = new Gate();
        sandbox.findGate = gate;

        Spawned starter = Spawned.start("starter", sandbox::start);
        gate.awaitArrival();
        Spawned destroyer = Spawned.start("destroyer", sandbox::destroy);
        destroyer.awaitParkedIn("destroy");
        assertThat(sandbox.destroys).hasValue(0);
        gate.open();

        starter.awaitSuccess();
        destroyer.awaitSuccess();
        assertThat(sandbox.events).containsExactly("find", "create", "destroy phys-1");
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.DESTROYED);
    }

    @Test
    void destroyOfAPendingSandboxWithNothingFoundJustMarksItDestroyed() {
        FakeSandbox sandbox = new FakeSandbox("s-pending");

        sandbox.destroy();

        assertThat(sandbox.status()).isEqualTo(SandboxStatus.DESTROYED);
        assertThat(sandbox.events).containsExactly("find");
        assertThat(sandbox.creates).hasValue(0);
        assertThat(sandbox.destroys).hasValue(0);
        assertThat(sandbox.sandboxId()).isEmpty();
    }

    @Test
    void destroyOfANeverStartedInstanceRemovesThePhysicalSandboxFindReports() {
        FakeSandbox sandbox = new FakeSandbox("s-left-over");
        sandbox.physical.set("phys-earlier-process");

        sandbox.destroy();

        assertThat(sandbox.events).containsExactly("find", "destroy phys-earlier-process");
        assertThat(sandbox.creates).hasValue(0);
        assertThat(sandbox.connects).hasValue(0);
        assertThat(sandbox.physical).hasValue(null);
        assertThat(sandbox.sandboxId()).contains("phys-earlier-process");
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.DESTROYED);
    }

    @Test
    void stopOfANeverStartedInstanceStopsWhatFindReportsWithoutConnecting() {
        FakeSandbox sandbox = new FakeSandbox("s-left-running");
        sandbox.physical.set("phys-earlier-process");

        sandbox.stop();

        assertThat(sandbox.events).containsExactly("find", "stop phys-earlier-process");
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);
    }

    @Test
    void stopOfAPendingSandboxWithNothingFoundLeavesItPending() {
        FakeSandbox sandbox = new FakeSandbox("s-stop-pending");

        sandbox.stop();

        assertThat(sandbox.status()).isEqualTo(SandboxStatus.PENDING);
        assertThat(sandbox.events).containsExactly("find");

        sandbox.start();
        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CREATED);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.RUNNING);
    }

    @Test
    void startAfterDestroyThrows() {
        FakeSandbox sandbox = new FakeSandbox("s-gone");
        sandbox.start();
        sandbox.destroy();
        int findsBefore = sandbox.finds.get();

        Throwable failure = catchThrowable(sandbox::start);

        assertThat(failure).isInstanceOf(SandboxDestroyedException.class)
                .hasMessage("Sandbox 's-gone' was destroyed; create a new instance to use the session again.");
        assertThat(((SandboxException) failure).code()).isEqualTo("DESTROYED");
        assertThat(sandbox.finds).hasValue(findsBefore);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.DESTROYED);
    }

    @Test
    void executeCommandAfterDestroyThrowsAndRunsNothing() {
        FakeSandbox sandbox = new FakeSandbox("s-gone-exec");
        sandbox.destroy();

        assertThatThrownBy(() -> sandbox.executeCommand("ls"))
                .isInstanceOf(SandboxDestroyedException.class)
                .hasMessageContaining("'s-gone-exec' was destroyed");
        assertThat(sandbox.executed).isEmpty();
        assertThat(sandbox.creates).hasValue(0);
    }

    @Test
    void executeCommandOnAPendingSandboxStartsItLazilyHookFirst() {
        FakeSandbox sandbox = new FakeSandbox("s-lazy");
        sandbox.setOnStart(previous -> event -> sandbox.record("hook"));

        CommandResult result = sandbox.executeCommand("echo", List.of("hi there"));

        assertThat(result.stdout()).isEqualTo("echo 'hi there'");
        assertThat(result.command()).isEqualTo("echo 'hi there'");
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.RUNNING);
        assertThat(sandbox.events).containsExactly("find", "create", "hook", "exec echo 'hi there'");
        assertThat(sandbox.executed.get(0).statusSeen()).isEqualTo(SandboxStatus.RUNNING);
    }

    @Test
    void failedStopIsReportedAndNotLatched() {
        FakeSandbox sandbox = new FakeSandbox("s-stop-fail");
        sandbox.start();
        IOException daemonGone = new IOException("daemon gone");
        sandbox.nextStopFailure.set(daemonGone);

        Throwable failure = catchThrowable(sandbox::stop);

        assertThat(failure).isInstanceOf(SandboxException.class)
                .hasMessage("Sandbox 's-stop-fail' failed to stop: daemon gone")
                .hasCause(daemonGone);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.ERROR);

        sandbox.stop();
        assertThat(sandbox.stops).hasValue(2);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);
    }

    @Test
    void anErrorInAPrimitiveDoesNotWedgeTheLifecycle() {
        FakeSandbox sandbox = new FakeSandbox("s-stop-error");
        sandbox.start();
        AssertionError bug = new AssertionError("provider bug");
        sandbox.nextDestroyFailure.set(bug);

        Throwable failure = catchThrowable(sandbox::destroy);

        assertThat(failure).isInstanceOf(SandboxException.class).hasCause(bug);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.ERROR);
        // Before the fix the transition never ended and this call waited forever.
        assertTimeoutPreemptively(DEADLOCK_GUARD, sandbox::destroy);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.DESTROYED);
        assertThat(sandbox.destroys).hasValue(2);
    }

    @Test
    void stopAfterAFailedDestroyStillStops() throws Exception {
        FakeSandbox sandbox = new FakeSandbox("s-destroy-fail");
        sandbox.start();
        Gate gate = new Gate();
        sandbox.destroyGate = gate;
        sandbox.nextDestroyFailure.set(new IOException("busy"));

        Spawned destroyer = Spawned.start("destroyer", sandbox::destroy);
        gate.awaitArrival();
        Spawned stopper = Spawned.start("stopper", sandbox::stop);
        stopper.awaitParkedIn("stop");
        gate.open();

        assertThat(destroyer.failure()).hasMessage("Sandbox 's-destroy-fail' failed to destroy: busy");
        stopper.awaitSuccess();
        assertThat(sandbox.stops).hasValue(1);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);
    }

    @Test
    void onStopHookCanRunATeardownCommandInTheRunningSandbox() {
        FakeSandbox sandbox = new FakeSandbox("s-teardown");
        sandbox.start();
        sandbox.setOnStop(s -> s.executeCommand("make", List.of("teardown")));

        assertTimeoutPreemptively(DEADLOCK_GUARD, sandbox::stop);

        assertThat(sandbox.events).containsExactly("find", "create", "exec make teardown", "stop phys-1");
        assertThat(sandbox.executed.get(0).statusSeen()).isEqualTo(SandboxStatus.STOPPING);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);
    }

    @Test
    void lifecycleCallsFromAnOnStopHookAreRefusedAndTheStopStillHappens() {
        FakeSandbox sandbox = new FakeSandbox("s-reentrant");
        sandbox.start();
        List<Throwable> refusals = new CopyOnWriteArrayList<>();
        sandbox.setOnStop(s -> {
            refusals.add(catchThrowable(s::stop));
            refusals.add(catchThrowable(s::start));
            refusals.add(catchThrowable(s::destroy));
            throw new IllegalStateException("hook gave up");
        });

        assertTimeoutPreemptively(DEADLOCK_GUARD, sandbox::stop);

        assertThat(refusals).extracting(Throwable::getMessage).containsExactly(
                "Sandbox 's-reentrant' cannot stop from its own onStop hook.",
                "Sandbox 's-reentrant' cannot start from its own onStop hook.",
                "Sandbox 's-reentrant' cannot destroy from its own onStop hook.");
        assertThat(refusals).allSatisfy(r -> assertThat(r).isInstanceOf(SandboxNotReadyException.class));
        assertThat(sandbox.stops).hasValue(1);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);
    }

    @Test
    void onDestroyHookOfANeverStartedInstanceCannotRunCommands() {
        FakeSandbox sandbox = new FakeSandbox("s-cold");
        sandbox.physical.set("phys-cold");
        List<Throwable> refusals = new CopyOnWriteArrayList<>();
        sandbox.setOnDestroy(s -> refusals.add(catchThrowable(() -> s.executeCommand("ls"))));

        assertTimeoutPreemptively(DEADLOCK_GUARD, sandbox::destroy);

        assertThat(refusals).hasSize(1);
        assertThat(refusals.get(0))
                .isInstanceOf(SandboxNotReadyException.class)
                .hasMessage("Sandbox 's-cold' was not running when its onDestroy hook began, so the hook cannot run commands in it.");
        assertThat(sandbox.executed).isEmpty();
        assertThat(sandbox.events).containsExactly("find", "destroy phys-cold");
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.DESTROYED);
    }

    @Test
    void restartAfterStopReconnects() {
        FakeSandbox sandbox = new FakeSandbox("s-restart");
        sandbox.start();
        sandbox.stop();

        sandbox.executeCommand("true");

        assertThat(sandbox.status()).isEqualTo(SandboxStatus.RUNNING);
        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CONNECTED);
        assertThat(sandbox.events).containsExactly("find", "create", "stop phys-1", "find", "connect phys-1", "exec true");
    }

    private static List<Spawned> spawn(int count, String name, Spawned.Action action) {
        List<Spawned> spawned = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            spawned.add(Spawned.start(name + "-" + i, action));
        }
        return spawned;
    }

    @Test
    void aCommandThatFindsThePhysicalSandboxGoneStopsTheInstanceAndTheNextCommandStartsAfresh() {
        FakeSandbox sandbox = new FakeSandbox("s-vanish");
        sandbox.executeCommand("true");
        sandbox.physical.set(null);

        assertThatThrownBy(() -> sandbox.executeCommand("ls")).isInstanceOf(SandboxDestroyedException.class);

        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);
        assertThat(sandbox.stops).hasValue(1);
        assertThat(sandbox.executeCommand("pwd").exitCode()).isZero();
        assertThat(sandbox.creates).hasValue(2);
        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CREATED);
    }

    @Test
    void aFailedStopOfAVanishedSandboxIsAddedToTheFailureAndLeavesTheInstanceInError() {
        FakeSandbox sandbox = new FakeSandbox("s-vanish-stuck");
        sandbox.executeCommand("true");
        sandbox.physical.set(null);
        sandbox.nextStopFailure.set(new IOException("engine down"));

        Throwable failure = catchThrowable(() -> sandbox.executeCommand("ls"));

        assertThat(failure).isInstanceOf(SandboxDestroyedException.class);
        assertThat(failure.getSuppressed()).singleElement().satisfies(e -> assertThat(e).hasMessageContaining("engine down"));
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.ERROR);
        assertThat(sandbox.executeCommand("pwd").exitCode()).isZero();
    }

    @Test
    void aTransferStartsTheSandboxLazilyAndGetsItsHandle() {
        FakeSandbox sandbox = new FakeSandbox("s-transfer");

        assertThat(sandbox.transferHandle()).isEqualTo("phys-1");
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.RUNNING);
        assertThat(sandbox.transferHandle()).isEqualTo("phys-1");
        assertThat(sandbox.creates).hasValue(1);
    }
}
