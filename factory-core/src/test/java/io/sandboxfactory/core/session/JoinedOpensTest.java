package io.sandboxfactory.core.session;

import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.RecordingListener;
import io.sandboxfactory.core.testing.SessionHarness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Opens of a running session that arrive while another open of it is starting (its warm start:
 * fetch, branch, setup gate) join that start: one warm start serves them all. An open asking for
 * other work (another branch) does not join.
 */
class JoinedOpensTest {

    @TempDir
    Path tmp;

    @Test
    void opensArrivingDuringAWarmStartJoinItInsteadOfStartingAgain() throws Exception {
        Path remote = Git.bareRepository(tmp.resolve("remote/app.git"));
        try (SessionHarness harness = new SessionHarness(tmp.resolve("state"))) {
            SessionSpec spec = SessionSpec.builder("joined").repository(remote.toString()).branch("work").build();
            harness.open(spec);
            harness.listener.clear();

            CountDownLatch entered = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            harness.listener.holdNext(new RecordingListener.Hold(SessionPhase.FETCH, entered, release));
            CompletableFuture<SessionHandle> first = CompletableFuture.supplyAsync(() -> harness.open(spec));
            assertThat(entered.await(60, TimeUnit.SECONDS)).as("the first open's warm start reached its fetch").isTrue();

            List<Thread> joiners = new ArrayList<>();
            List<CompletableFuture<SessionHandle>> opens = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                CompletableFuture<SessionHandle> open = new CompletableFuture<>();
                Thread thread = new Thread(() -> {
                    try {
                        open.complete(harness.open(spec));
                    } catch (RuntimeException e) {
                        open.completeExceptionally(e);
                    }
                });
                thread.start();
                joiners.add(thread);
                opens.add(open);
            }
            try {
                for (Thread joiner : joiners) {
                    awaitJoined(joiner);
                }
            } finally {
                release.countDown();
            }

            assertThat(first.get(60, TimeUnit.SECONDS).sandbox().status()).isEqualTo(SandboxStatus.RUNNING);
            for (CompletableFuture<SessionHandle> open : opens) {
                assertThat(open.get(60, TimeUnit.SECONDS).sandbox().status()).isEqualTo(SandboxStatus.RUNNING);
            }
            assertThat(harness.listener.phases()).as("phases of the 21 opens").filteredOn(p -> p == SessionPhase.FETCH).hasSize(1);
            assertThat(harness.listener.phases()).filteredOn(p -> p == SessionPhase.START).hasSize(1);

            // Another branch is other work: it starts on its own.
            harness.open(SessionSpec.builder("joined").repository(remote.toString()).branch("other").build());
            assertThat(harness.listener.phases()).filteredOn(p -> p == SessionPhase.START).hasSize(2);
        }
    }

    /** Waits until {@code thread} waits on the start it joined (its stack is in StartFlights, parked on the flight). */
    private static void awaitJoined(Thread thread) throws InterruptedException {
        while (true) {
            List<String> frames = Arrays.stream(thread.getStackTrace()).map(f -> f.getClassName() + "." + f.getMethodName()).toList();
            if (frames.stream().anyMatch(f -> f.endsWith("StartFlights.startOrJoin")) && frames.stream().anyMatch(f -> f.contains("CompletableFuture"))
                    && thread.getState() == Thread.State.WAITING) {
                return;
            }
            assertThat(thread.isAlive()).as("a joiner ended before the first open's start did").isTrue();
            assertThat(frames).as("an open started the session itself instead of joining the start under way")
                    .noneMatch(f -> f.endsWith("OpenPipeline.startHoldingLease"));
            Thread.onSpinWait();
            Thread.yield();
        }
    }
}
