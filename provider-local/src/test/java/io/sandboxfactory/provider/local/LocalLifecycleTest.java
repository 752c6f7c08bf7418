package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.api.StartOutcome;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static io.sandboxfactory.provider.local.TestBed.assertDiesSoon;
import static io.sandboxfactory.provider.local.TestBed.isDead;
import static io.sandboxfactory.provider.local.TestBed.readPid;
import static io.sandboxfactory.provider.local.TestBed.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Start, stop, destroy and reconnect of session directories, with real processes. */
class LocalLifecycleTest {

    @TempDir
    Path temp;

    private TestBed bed;

    @BeforeEach
    void open() {
        bed = new TestBed(temp);
    }

    @AfterEach
    void close() {
        bed.close();
    }

    @Test
    void createTouchesNothingAndStartMakesTheMarkedSessionDirectory() {
        LocalSandbox sandbox = bed.sandbox("s1");

        assertThat(bed.root()).doesNotExist();
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.PENDING);

        sandbox.start();

        assertThat(sandbox.directory()).isEqualTo(bed.root().resolve("s1")).isDirectory();
        assertThat(sandbox.directory().resolve(LocalSandbox.OWNER_MARKER)).isRegularFile();
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.RUNNING);
        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CREATED);
        assertThat(sandbox.sandboxId()).contains(sandbox.directory().toString());
        assertThat(sandbox.id()).isEqualTo("s1");
    }

    @Test
    void stopKillsARunningCommandKeepsTheFilesAndTheNextCommandRestartsLazily() throws Exception {
        LocalSandbox sandbox = bed.sandbox("stoppable");
        run(sandbox, "echo kept > file.txt");
        CountDownLatch started = new CountDownLatch(1);
        CommandOptions options = CommandOptions.builder().onStdout(chunk -> started.countDown()).build();
        CompletableFuture<CommandResult> longRunning = CompletableFuture.supplyAsync(
                () -> run(sandbox, "sleep 300 & echo $! > sleeper.pid; echo started; wait", options));
        assertThat(started.await(30, TimeUnit.SECONDS)).isTrue();
        TestBed.SessionPid sleeper = readPid(sandbox, sandbox.directory().resolve("sleeper.pid"));

        sandbox.stop();

        CommandResult killed = longRunning.get(60, TimeUnit.SECONDS);
        assertThat(killed.exitCode()).as("killed by SIGKILL: 128 + 9").isEqualTo(137);
        assertThat(killed.timedOut()).isFalse();
        assertDiesSoon(sleeper);
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);
        assertThat(sandbox.directory().resolve("file.txt")).hasContent("kept");

        CommandResult after = run(sandbox, "cat file.txt");

        assertThat(after.stdout()).isEqualTo("kept\n");
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.RUNNING);
        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CONNECTED);
    }

    @Test
    void stopAlsoKillsWhatAFinishedCommandLeftRunningInTheBackground() throws Exception {
        LocalSandbox sandbox = bed.sandbox("leftovers");
        CommandResult result = run(sandbox, "sleep 300 > /dev/null 2>&1 & echo $! > bg.pid");
        assertThat(result.exitCode()).isZero();
        TestBed.SessionPid background = readPid(sandbox, sandbox.directory().resolve("bg.pid"));
        assertThat(isDead(background)).as("the background process outlives its command").isFalse();
        // Later commands look at the leftover group again; it must stay known as ours.
        assertThat(run(sandbox, "true").exitCode()).isZero();
        assertThat(run(sandbox, "true").exitCode()).isZero();

        sandbox.stop();

        assertDiesSoon(background);
        assertThat(sandbox.directory()).isDirectory();
    }

    @Test
    void destroyRemovesTheDirectoryKillsItsProcessesAndEndsTheInstance() throws Exception {
        LocalSandbox sandbox = bed.sandbox("doomed");
        run(sandbox, "echo gone > file.txt; sleep 300 > /dev/null 2>&1 & echo $! > bg.pid");
        TestBed.SessionPid background = readPid(sandbox, sandbox.directory().resolve("bg.pid"));

        sandbox.destroy();

        assertThat(sandbox.directory()).doesNotExist();
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.DESTROYED);
        assertDiesSoon(background);
        assertThatThrownBy(() -> run(sandbox, "true")).isInstanceOf(SandboxDestroyedException.class);
        assertThatThrownBy(sandbox::start).isInstanceOf(SandboxDestroyedException.class);
        sandbox.destroy(); // idempotent

        LocalSandbox fresh = bed.sandbox("doomed");
        fresh.start();

        assertThat(fresh.lastStartOutcome()).contains(StartOutcome.CREATED);
        assertThat(run(fresh, "ls -A").stdout()).isEqualTo(LocalSandbox.OWNER_MARKER + "\n");
    }

    @Test
    void destroyRemovesWhatCommandsMadeReadOnlyOrUnreadable() {
        LocalSandbox sandbox = bed.sandbox("locked");
        CommandResult made = run(sandbox, "mkdir -p ro/sub locked/inner && touch ro/sub/f locked/inner/g"
                + " && chmod 555 ro/sub ro && chmod 000 locked && ln -s / escape");
        assertThat(made.exitCode()).as(made.stderr()).isZero();

        sandbox.destroy();

        assertThat(sandbox.directory()).doesNotExist();
        assertThat(Path.of("/")).isDirectory(); // the symlink was removed, not followed
    }

    @Test
    void aDirectoryDeletedFromOutsideMakesTheNextCommandThrowDestroyed() throws Exception {
        LocalSandbox sandbox = bed.sandbox("vanishing");
        run(sandbox, "echo x > file.txt");

        Directories.deleteRecursively(sandbox.directory());

        assertThatThrownBy(() -> run(sandbox, "echo never > ran.txt"))
                .isInstanceOf(SandboxDestroyedException.class)
                .hasMessageContaining(sandbox.directory().toString())
                .hasMessageContaining("no longer exists");
        assertThat(sandbox.directory()).doesNotExist();
    }

    @Test
    void afterItsDirectoryVanishedTheNextCommandStartsAFreshSandbox() throws Exception {
        LocalSandbox sandbox = bed.sandbox("reborn");
        run(sandbox, "echo x > file.txt");
        Directories.deleteRecursively(sandbox.directory());
        assertThatThrownBy(() -> run(sandbox, "true")).isInstanceOf(SandboxDestroyedException.class);

        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);
        CommandResult result = run(sandbox, "ls -A");

        assertThat(result.stdout()).doesNotContain("file.txt");
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.RUNNING);
        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CREATED);
        assertThat(sandbox.directory().resolve(LocalSandbox.OWNER_MARKER)).isRegularFile();
    }

    @Test
    void twoInstancesForOneSessionShareTheDirectory() {
        LocalSandbox first = bed.sandbox("shared");
        LocalSandbox second = bed.sandbox("shared");
        run(first, "echo from-first > note.txt");

        CommandResult read = run(second, "cat note.txt");

        assertThat(read.stdout()).isEqualTo("from-first\n");
        assertThat(first.lastStartOutcome()).contains(StartOutcome.CREATED);
        assertThat(second.lastStartOutcome()).contains(StartOutcome.CONNECTED);
        assertThat(second.directory()).isEqualTo(first.directory());
    }

    @Test
    void aSecondProviderInstanceOnTheSameRootReconnectsAndTheFilesSurvive() {
        LocalSandbox original = bed.sandbox("resumed");
        run(original, "echo survived > state.txt");
        original.stop();

        LocalFactorySandbox reopened = bed.openFactory(LocalProviderConfig.withRoot(bed.root().toString()));
        LocalSandbox again = bed.track(reopened, "resumed");
        again.start();

        assertThat(again.lastStartOutcome()).contains(StartOutcome.CONNECTED);
        assertThat(again.sandboxId()).isEqualTo(original.sandboxId());
        assertThat(run(again, "cat state.txt").stdout()).isEqualTo("survived\n");
    }

    @Test
    void aForeignDirectoryIsNeitherAdoptedNorDeleted() throws Exception {
        Path foreign = Files.createDirectories(bed.root().resolve("foreign"));
        Files.writeString(foreign.resolve("precious.txt"), "mine");
        LocalSandbox sandbox = bed.sandbox("foreign");

        assertThatThrownBy(sandbox::start)
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining(foreign.toString())
                .hasMessageContaining("was not made by the local provider")
                .extracting(e -> ((SandboxException) e).code()).isEqualTo("FOREIGN_DIRECTORY");
        sandbox.destroy();

        assertThat(foreign.resolve("precious.txt")).hasContent("mine");
        assertThat(foreign.resolve(LocalSandbox.OWNER_MARKER)).doesNotExist();
    }

    @Test
    void anEmptyExistingDirectoryIsAdopted() throws Exception {
        Files.createDirectories(bed.root().resolve("premade"));
        LocalSandbox sandbox = bed.sandbox("premade");

        sandbox.start();

        assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CREATED);
        assertThat(sandbox.directory().resolve(LocalSandbox.OWNER_MARKER)).isRegularFile();
    }

    @Test
    void stopOnANeverStartedInstanceProvisionsNothing() {
        LocalSandbox sandbox = bed.sandbox("idle");

        sandbox.stop();
        sandbox.stop();

        assertThat(bed.root()).doesNotExist();
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.PENDING);
    }

    @Test
    void aTimeoutDoesNotOutliveStopEither() {
        LocalSandbox sandbox = bed.sandbox("bounded");

        CommandResult result = run(sandbox, "sleep 300", CommandOptions.builder().timeout(Duration.ofMillis(300)).build());
        sandbox.stop();

        assertThat(result.timedOut()).isTrue();
        assertThat(sandbox.status()).isEqualTo(SandboxStatus.STOPPED);
    }
}
