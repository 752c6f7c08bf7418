package io.sandboxfactory.core.session;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.core.internal.session.SessionEntry;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.testing.FaultySandboxes;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.SessionHarness;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Dead-sandbox revival through {@link SessionHandle#executeCommand} with the real local provider,
 * real git and a real SQLite store: a command whose sandbox vanished is replayed once on a fresh
 * sandbox that went through the whole start (clone, branch, setup); a command that may have run is
 * never replayed. Runs are counted with side-effect files outside the session.
 */
class DeadSandboxRevivalTest {

    /** The class a revival holds its session's lock in; a name, as the class is package-private there. */
    private static final String REVIVAL = "io.sandboxfactory.core.internal.session.SessionRevival";

    @TempDir
    Path tmp;
    Path remote;
    Path state;
    Path setupLog;
    Path runs;

    @BeforeEach
    void fixtures() throws IOException {
        remote = Git.bareRepository(tmp.resolve("remote/app.git"));
        state = tmp.resolve("state");
        setupLog = tmp.resolve("setup.log");
        runs = tmp.resolve("runs.log");
    }

    private SessionSpec spec() {
        return SessionSpec.builder("s1").repository(remote.toString()).branch("work")
                .setupCommands("echo setup >> '" + setupLog + "'").build();
    }

    /** Appends a line to the run log (so every real run is counted), then prints the README. */
    private String countedCommand() {
        return "echo ran >> '" + runs + "' && cat README.md";
    }

    private static CommandOptions in(String cwd) {
        return CommandOptions.builder().cwd(cwd).build();
    }

    private List<String> lines(Path file) throws IOException {
        return Files.exists(file) ? Files.readAllLines(file) : List.of();
    }

    private static long clones(SessionHarness factory) {
        return factory.listener.commands().stream().filter(c -> c.contains(" clone ")).count();
    }

    @Test
    void aSessionDirectoryDeletedUnderARunningSessionIsRecreatedWithCloneAndSetupAndTheCommandRunsOnce() throws Exception {
        try (SessionHarness factory = new SessionHarness(state)) {
            SessionHandle handle = factory.open(spec());
            MastraSandbox<?> dead = handle.sandbox();
            String checkout = handle.checkout().orElseThrow();
            Path sessionDir = factory.sessionDirectory("s1");
            assertThat(sessionDir.resolve(".mastra-sandbox/setup")).exists();

            MaterializeAndSetupTest.deleteTree(sessionDir);
            assertThat(sessionDir).doesNotExist();

            CommandResult result = handle.executeCommand(countedCommand(), List.of(), in(checkout));

            assertThat(result.exitCode()).as(result.stderr()).isZero();
            assertThat(result.stdout()).contains("# fixture");
            assertThat(lines(runs)).as("the command ran exactly once").containsExactly("ran");
            assertThat(lines(setupLog)).as("setup ran again in the fresh sandbox").containsExactly("setup", "setup");
            assertThat(sessionDir.resolve(".mastra-sandbox/setup")).as("setup marker written again").exists();
            assertThat(Git.run(Path.of(checkout), "symbolic-ref", "--short", "HEAD")).isEqualTo("work");
            assertThat(clones(factory)).isEqualTo(2);
            assertThat(factory.listener.phases()).contains(SessionPhase.REVIVE);

            MastraSandbox<?> fresh = handle.sandbox();
            assertThat(fresh).isNotSameAs(dead);
            assertThat(fresh.status()).isEqualTo(SandboxStatus.RUNNING);
            assertThat(dead.status()).as("the dead instance was released, not destroyed").isEqualTo(SandboxStatus.STOPPED);
            assertThat(factory.memo.peek("s1").orElseThrow().sandbox()).as("the memo entry was replaced").isSameAs(fresh);
            assertThat(factory.opener.session("s1").orElseThrow().sandbox()).isSameAs(fresh);

            // The handle keeps using the fresh sandbox: no further clone.
            assertThat(handle.executeCommand("true").exitCode()).isZero();
            assertThat(clones(factory)).isEqualTo(2);
        }
    }

    @Test
    void aCheckoutDeletedUnderALiveSandboxIsClonedAgainWhenACommandRunsInIt() throws Exception {
        try (SessionHarness factory = new SessionHarness(state)) {
            SessionHandle handle = factory.open(spec());
            String checkout = handle.checkout().orElseThrow();
            MaterializeAndSetupTest.deleteTree(Path.of(checkout));

            CommandResult result = handle.executeCommand(countedCommand(), List.of(), in(checkout));

            assertThat(result.stdout()).contains("# fixture");
            assertThat(lines(runs)).containsExactly("ran");
            assertThat(lines(setupLog)).as("a wiped checkout reads as not set up").containsExactly("setup", "setup");
            assertThat(clones(factory)).isEqualTo(2);
        }
    }

    @Test
    void aMissingDirectoryOfTheUsersOwnChoosingIsReportedNotRevived() throws Exception {
        try (SessionHarness factory = new SessionHarness(state)) {
            SessionHandle handle = factory.open(spec());
            MastraSandbox<?> sandbox = handle.sandbox();
            String typo = handle.checkout().orElseThrow() + "/no-such-dir";

            assertThatThrownBy(() -> handle.executeCommand(countedCommand(), List.of(), in(typo)))
                    .isInstanceOfSatisfying(SandboxException.class, e -> assertThat(e.code()).isEqualTo("CWD_MISSING"));

            assertThat(lines(runs)).isEmpty();
            assertThat(handle.sandbox()).isSameAs(sandbox);
            assertThat(clones(factory)).isEqualTo(1);
            assertThat(factory.listener.phases()).doesNotContain(SessionPhase.REVIVE);
        }
    }

    @Test
    void aCommandThatRanIsNeverReplayedWhateverItsExitCode() throws Exception {
        try (SessionHarness factory = new SessionHarness(state)) {
            SessionHandle handle = factory.open(spec());
            MastraSandbox<?> sandbox = handle.sandbox();
            String checkout = handle.checkout().orElseThrow();

            CommandResult failed = handle.executeCommand("echo ran >> '" + runs + "'; exit 3", List.of(), in(checkout));
            CommandResult missingProgram = handle.executeCommand("no-such-program-sf-test", List.of(), in(checkout));
            CommandResult timedOut = handle.executeCommand("echo ran >> '" + runs + "'; sleep 30", List.of(),
                    CommandOptions.builder().cwd(checkout).timeout(java.time.Duration.ofMillis(300)).build());

            assertThat(failed.exitCode()).isEqualTo(3);
            assertThat(missingProgram.exitCode()).isEqualTo(127);
            assertThat(timedOut.timedOut()).isTrue();
            assertThat(lines(runs)).containsExactly("ran", "ran");
            assertThat(handle.sandbox()).isSameAs(sandbox);
            assertThat(clones(factory)).isEqualTo(1);
        }
    }

    @Test
    void aTransportFailureAfterTheCommandOpenedSurfacesAndIsNotReplayed() throws Exception {
        FaultySandboxes[] faulty = new FaultySandboxes[1];
        try (SessionHarness factory = new SessionHarness(state, real -> faulty[0] = new FaultySandboxes(real))) {
            SessionHandle handle = factory.open(spec());
            MastraSandbox<?> sandbox = handle.sandbox();
            faulty[0].arm(FaultySandboxes.Fault.AFTER_OPEN);

            assertThatThrownBy(() -> handle.executeCommand(countedCommand(), List.of(), in(handle.checkout().orElseThrow())))
                    .isInstanceOfSatisfying(SandboxExecTransportException.class, e -> assertThat(e.opened()).isTrue());

            assertThat(lines(runs)).as("it ran once and was not replayed").containsExactly("ran");
            assertThat(handle.sandbox()).isSameAs(sandbox);
            assertThat(faulty[0].created()).isEqualTo(1);
            assertThat(clones(factory)).isEqualTo(1);
        }
    }

    @Test
    void aTransportFailureBeforeTheCommandWasCreatedIsReplayedOnceOnAFreshSandbox() throws Exception {
        FaultySandboxes[] faulty = new FaultySandboxes[1];
        try (SessionHarness factory = new SessionHarness(state, real -> faulty[0] = new FaultySandboxes(real))) {
            SessionHandle handle = factory.open(spec());
            MastraSandbox<?> sandbox = handle.sandbox();
            faulty[0].arm(FaultySandboxes.Fault.BEFORE_OPEN);

            CommandResult result = handle.executeCommand(countedCommand(), List.of(), in(handle.checkout().orElseThrow()));

            assertThat(result.stdout()).contains("# fixture");
            assertThat(lines(runs)).containsExactly("ran");
            assertThat(handle.sandbox()).isNotSameAs(sandbox);
            assertThat(factory.memo.peek("s1").orElseThrow().sandbox()).isSameAs(handle.sandbox());
            assertThat(faulty[0].created()).isEqualTo(2);
            assertThat(sandbox.status()).as("an unreachable sandbox is dropped, not stopped").isEqualTo(SandboxStatus.RUNNING);
            // The checkout survived (the sandbox was only unreachable): the fresh start fetched instead of cloning.
            assertThat(clones(factory)).isEqualTo(1);
            assertThat(lines(setupLog)).containsExactly("setup");
        }
    }

    @Test
    void aFailureOfTheReplayItselfSurfacesWithoutASecondReplay() throws Exception {
        FaultySandboxes[] faulty = new FaultySandboxes[1];
        try (SessionHarness factory = new SessionHarness(state, real -> faulty[0] = new FaultySandboxes(real))) {
            SessionHandle handle = factory.open(spec());
            String checkout = handle.checkout().orElseThrow();
            faulty[0].arm(FaultySandboxes.Fault.BEFORE_OPEN);
            // The fresh start runs two commands (probe, fetch); the third is the replay.
            faulty[0].arm(FaultySandboxes.Fault.NONE);
            faulty[0].arm(FaultySandboxes.Fault.NONE);
            faulty[0].arm(FaultySandboxes.Fault.BEFORE_OPEN);

            assertThatThrownBy(() -> handle.executeCommand(countedCommand(), List.of(), in(checkout)))
                    .isInstanceOfSatisfying(SandboxExecTransportException.class, e -> assertThat(e.opened()).isFalse());

            assertThat(lines(runs)).isEmpty();
            assertThat(faulty[0].created()).isEqualTo(2);
        }
    }

    @Test
    void aSessionRetiredHereIsNotRevived() throws Exception {
        try (SessionHarness factory = new SessionHarness(state)) {
            SessionHandle handle = factory.open(spec());
            factory.retire("s1", RetireMode.DESTROY);

            assertThatThrownBy(() -> handle.executeCommand(countedCommand()))
                    .isInstanceOf(SandboxDestroyedException.class);

            assertThat(factory.sessionDirectory("s1")).doesNotExist();
            assertThat(factory.store.find("s1")).isEmpty();
            assertThat(factory.memo.peek("s1")).isEmpty();
            assertThat(lines(runs)).isEmpty();
        }
    }

    @Test
    void aSessionRetiredByAnotherProcessIsNotRevived() throws Exception {
        try (SessionHarness factory = new SessionHarness(state)) {
            SessionHandle handle = factory.open(spec());
            // Another process retires the session and removes its directory.
            try (SessionHarness other = new SessionHarness(state)) {
                other.retire("s1", RetireMode.DESTROY);
            }
            assertThat(factory.sessionDirectory("s1")).doesNotExist();

            assertThatThrownBy(() -> handle.executeCommand(countedCommand()))
                    .isInstanceOf(SandboxDestroyedException.class);

            assertThat(factory.sessionDirectory("s1")).doesNotExist();
            assertThat(clones(factory)).isEqualTo(1);
        }
    }

    @Test
    void callersThatFindTheSameSandboxDeadAtOnceShareOneFreshSandbox() throws Exception {
        try (SessionHarness factory = new SessionHarness(state)) {
            SessionHandle first = factory.open(spec());
            SessionHandle second = factory.opener.session("s1").orElseThrow();
            String checkout = first.checkout().orElseThrow();
            MaterializeAndSetupTest.deleteTree(factory.sessionDirectory("s1"));

            CyclicBarrier together = new CyclicBarrier(2);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<Future<CommandResult>> results = new ArrayList<>();
                for (SessionHandle handle : List.of(first, second)) {
                    results.add(pool.submit(() -> {
                        together.await(10, TimeUnit.SECONDS);
                        return handle.executeCommand(countedCommand(), List.of(), in(checkout));
                    }));
                }
                for (Future<CommandResult> result : results) {
                    assertThat(result.get(2, TimeUnit.MINUTES).stdout()).contains("# fixture");
                }
            } finally {
                pool.shutdownNow();
            }

            assertThat(lines(runs)).containsExactly("ran", "ran");
            assertThat(clones(factory)).as("one revival, one fresh clone").isEqualTo(2);
            assertThat(first.sandbox()).isSameAs(second.sandbox());
        }
    }

    @Test
    void aDeadInstanceThatARevivalReplacedNeverStartsAgain() throws Exception {
        try (SessionHarness factory = new SessionHarness(state)) {
            SessionHandle handle = factory.open(spec());
            MastraSandbox<?> dead = handle.sandbox();
            String checkout = handle.checkout().orElseThrow();
            MaterializeAndSetupTest.deleteTree(factory.sessionDirectory("s1"));
            assertThat(handle.executeCommand(countedCommand(), List.of(), in(checkout)).exitCode()).isZero();
            assertThat(clones(factory)).isEqualTo(2);

            // A caller that still holds the replaced instance must not prepare the session's files a second time.
            assertThatThrownBy(dead::start).hasRootCauseInstanceOf(SandboxDestroyedException.class)
                    .rootCause().hasMessageContaining("replaced by a fresh one");
            assertThat(clones(factory)).as("the replaced instance ran no clone").isEqualTo(2);
            assertThat(factory.memo.peek("s1").orElseThrow().sandbox()).isSameAs(handle.sandbox()).isNotSameAs(dead);
            assertThat(handle.executeCommand(countedCommand(), List.of(), in(checkout)).exitCode()).isZero();
            assertThat(lines(runs)).containsExactly("ran", "ran");
        }
    }

    @Test
    void aCallerWhoseDeadSandboxAnotherCallerRestartedMeanwhileReplaysOnItInsteadOfStartingASecondOne() throws Exception {
        try (SessionHarness factory = new SessionHarness(state)) {
            SessionHandle handle = factory.open(spec());
            SessionEntry entry = factory.memo.peek("s1").orElseThrow();
            String checkout = handle.checkout().orElseThrow();
            MaterializeAndSetupTest.deleteTree(factory.sessionDirectory("s1"));

            ExecutorService pool = Executors.newSingleThreadExecutor();
            try {
                Future<CommandResult> replayed;
                // Revivals of one instance serialize on it: holding it keeps the caller between failure and revival.
                synchronized (entry) {
                    Thread[] caller = new Thread[1];
                    replayed = pool.submit(() -> {
                        caller[0] = Thread.currentThread();
                        return handle.executeCommand(countedCommand(), List.of(), in(checkout));
                    });
                    awaitBlockedInRevival(caller);
                    // Meanwhile another caller restarts the very same instance (it is in ERROR, so start acquires anew).
                    entry.sandbox().start();
                }
                assertThat(replayed.get(2, TimeUnit.MINUTES).stdout()).contains("# fixture");
            } finally {
                pool.shutdownNow();
            }

            assertThat(clones(factory)).as("only the restart cloned; no second instance was started").isEqualTo(2);
            assertThat(factory.memo.peek("s1")).containsSame(entry);
            assertThat(handle.sandbox()).isSameAs(entry.sandbox());
            assertThat(factory.listener.phases()).doesNotContain(SessionPhase.REVIVE);
            assertThat(lines(runs)).containsExactly("ran");
        }
    }

    private static void awaitBlockedInRevival(Thread[] caller) throws InterruptedException {
        for (int i = 0; i < 6000; i++) {
            Thread thread = caller[0];
            if (thread != null && thread.getState() == Thread.State.BLOCKED && List.of(thread.getStackTrace()).stream()
                    .anyMatch(frame -> frame.getClassName().equals(REVIVAL))) {
                return;
            }
            Thread.sleep(10);
        }
        throw new AssertionError("The caller never reached the revival of its dead sandbox.");
    }
}
