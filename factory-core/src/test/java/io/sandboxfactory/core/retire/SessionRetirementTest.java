package io.sandboxfactory.core.retire;

import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionRetiredException;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.SessionSpecBuilder;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.SessionHarness;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

class SessionRetirementTest {

    @TempDir
    Path tmp;
    Path remote;
    Path state;
    Path log;

    @BeforeEach
    void fixtures() throws IOException {
        remote = Git.bareRepository(tmp.resolve("remote/svc.git"));
        state = tmp.resolve("state");
        log = tmp.resolve("teardown.log");
    }

    private SessionSpecBuilder spec(String id) {
        return SessionSpec.builder(id).repository(remote.toString()).branch("work")
                .teardownCommands("pwd >> '" + log + "'", "echo second-teardown-command >> '" + log + "'");
    }

    private List<String> logLines() throws IOException {
        return Files.exists(log) ? Files.readAllLines(log) : List.of();
    }

    @Test
    void teardownRunsInTheCheckoutThenStopKeepsFilesAndDestroyRemovesThem() throws Exception {
        try (SessionHarness factory = new SessionHarness(state)) {
            AtomicInteger invalidated = new AtomicInteger();
            factory.coordinator.onInvalidate("s1", invalidated::incrementAndGet);
            MastraSandbox<?> first = factory.open(spec("s1").build()).sandbox();
            Path checkout = factory.sessionDirectory("s1").resolve("svc");
            Files.writeString(checkout.resolve("notes.txt"), "kept\n");

            factory.retire("s1", RetireMode.STOP);
            assertThat(logLines()).containsExactly(checkout.toString(), "second-teardown-command");
            assertThat(first.status()).isEqualTo(SandboxStatus.STOPPED);
            assertThat(factory.opener.session("s1")).as("evicted").isEmpty();
            assertThat(checkout.resolve("notes.txt")).hasContent("kept");
            assertThat(factory.store.find("s1")).isPresent();
            assertThat(invalidated).hasValue(1);

            MastraSandbox<?> second = factory.open(spec("s1").build()).sandbox();
            assertThat(second).isNotSameAs(first);
            assertThat(checkout.resolve("notes.txt")).hasContent("kept");

            factory.retire("s1", RetireMode.DESTROY);
            assertThat(logLines()).hasSize(4);
            assertThat(second.status()).isEqualTo(SandboxStatus.DESTROYED);
            assertThat(factory.sessionDirectory("s1")).doesNotExist();
            assertThat(factory.store.find("s1")).isEmpty();
            assertThat(invalidated).hasValue(2);
        }
    }

    @Test
    void retirementsOfOneSessionRunOneAtATimeAndAFailureDoesNotBlockTheNext() throws Exception {
        try (SessionHarness factory = new SessionHarness(state)) {
            factory.open(spec("s1").build());
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch firstInside = new CountDownLatch(1);
            CountDownLatch releaseFirst = new CountDownLatch(1);
            AtomicInteger calls = new AtomicInteger();
            factory.coordinator.onInvalidate("s1", () -> {
                int call = calls.incrementAndGet();
                order.add("enter-" + call);
                if (call == 1) {
                    firstInside.countDown();
                    await(releaseFirst);
                    order.add("exit-" + call);
                    throw new IllegalStateException("host cache exploded");
                }
                order.add("exit-" + call);
            });
            CompletableFuture<Void> first = CompletableFuture.runAsync(() -> factory.retire("s1", RetireMode.STOP));
            assertThat(firstInside.await(30, TimeUnit.SECONDS)).isTrue();
            Thread[] secondThread = new Thread[1];
            CompletableFuture<Void> second = new CompletableFuture<>();
            secondThread[0] = new Thread(() -> {
                try {
                    factory.retire("s1", RetireMode.DESTROY);
                    second.complete(null);
                } catch (Throwable t) {
                    second.completeExceptionally(t);
                }
            });
            secondThread[0].start();
            // Wait until the second call is parked on the session's lock, then let the first finish.
            while (secondThread[0].getState() != Thread.State.WAITING && !second.isDone()) {
                Thread.onSpinWait();
            }
            assertThat(order).containsExactly("enter-1");
            releaseFirst.countDown();
            first.get(30, TimeUnit.SECONDS);
            second.get(30, TimeUnit.SECONDS);
            assertThat(order).containsExactly("enter-1", "exit-1", "enter-2", "exit-2");
            assertThat(factory.sessionDirectory("s1")).doesNotExist();
        }
    }

    @ParameterizedTest
    @EnumSource(RetireMode.class)
    void aRetirementDuringAnInFlightOpenFailsTheOpenInsteadOfLeavingALiveSandbox(RetireMode mode) throws Exception {
        Path started = tmp.resolve("setup-started");
        Path release = tmp.resolve("never-created");
        String blockingSetup = "touch '" + started + "'; while [ ! -e '" + release + "' ]; do sleep 0.05; done";
        try (SessionHarness factory = new SessionHarness(state)) {
            CompletableFuture<SessionHandle> open = CompletableFuture.supplyAsync(
                    () -> factory.open(spec("s1").setupCommands(blockingSetup).build()));
            while (!Files.exists(started) && !open.isDone()) {
                Thread.sleep(10);
            }
            assertThat(open).isNotDone();
            MastraSandbox<?> sandbox = factory.memo.peek("s1").orElseThrow().sandbox();

            factory.retire("s1", mode);

            Throwable failure = catchThrowable(() -> open.get(60, TimeUnit.SECONDS));
            assertThat(failure).isInstanceOf(ExecutionException.class);
            assertThat(failure.getCause()).isInstanceOf(SessionRetiredException.class)
                    .hasMessage("Session 's1' was retired during workspace materialization");
            assertThat(sandbox.status()).isNotEqualTo(SandboxStatus.RUNNING);
            assertThat(factory.opener.session("s1")).isEmpty();
            assertThat(factory.sessionDirectory("s1").resolve(".mastra-sandbox/setup")).doesNotExist();
            assertThat(factory.store.failedSetupCommands("s1")).as("a cancelled setup is not a failed setup").isEmpty();
            assertThat(logLines()).as("teardown needs a running sandbox").isEmpty();
            if (mode == RetireMode.DESTROY) {
                assertThat(factory.sessionDirectory("s1")).doesNotExist();
            }
        }
    }

    @Test
    void aSessionThisProcessDoesNotHoldIsEndedThroughTheProvider() throws Exception {
        try (SessionHarness opener = new SessionHarness(state)) {
            opener.open(spec("s1").build());
        }
        try (SessionHarness other = new SessionHarness(state)) {
            assertThat(other.sessionDirectory("s1")).isDirectory();
            other.retire("s1", RetireMode.DESTROY);
            assertThat(other.sessionDirectory("s1")).doesNotExist();
            assertThat(other.store.find("s1")).isEmpty();
            assertThat(other.sessionDirectory("s1").getParent()).exists();
        }
    }

    @Test
    void aRetirementByAnotherProcessMakesTheNextOpenHereUseAFreshInstance() throws Exception {
        try (SessionHarness here = new SessionHarness(state); SessionHarness elsewhere = new SessionHarness(state)) {
            MastraSandbox<?> stale = here.open(spec("s1").build()).sandbox();
            elsewhere.retire("s1", RetireMode.STOP);
            SessionHandle reopened = here.open(spec("s1").build());
            assertThat(reopened.sandbox()).isNotSameAs(stale);
            assertThat(reopened.sandbox().status()).isEqualTo(SandboxStatus.RUNNING);
            assertThat(reopened.sandbox().executeCommand("git rev-parse --abbrev-ref HEAD", List.of(),
                    io.sandboxfactory.api.CommandOptions.builder().cwd("svc").build()).stdout().strip()).isEqualTo("work");
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
