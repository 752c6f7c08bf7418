package io.sandboxfactory.core.retire;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.api.testing.DeadHosts;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.config.Lifecycle;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.SessionSpecBuilder;
import io.sandboxfactory.store.api.SessionDefinition;
import io.sandboxfactory.store.api.SessionRecord;
import io.sandboxfactory.core.testing.Git;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Bulk and idle retirement, retiring what nobody knows, and destroying the sessions of runs whose
 * process died — never a session someone else holds: a live owner's, another host's, an opened one,
 * one a later open claimed, one this factory holds — with the real local provider, real git and the
 * SQLite store; "another process" is a second factory on the same state directory.
 */
class BulkRetirementTest {

    @TempDir
    Path tmp;
    Path remote;
    Path other;
    Path state;
    Path teardownLog;

    @BeforeEach
    void fixtures() throws IOException {
        remote = Git.bareRepository(tmp.resolve("remote/app.git"));
        other = Git.bareRepository(tmp.resolve("remote/other.git"));
        state = tmp.resolve("state");
        teardownLog = tmp.resolve("teardown.log");
    }

    private SandboxFactory factory() {
        return factory(Lifecycle.off());
    }

    private SandboxFactory factory(Lifecycle lifecycle) {
        return SandboxFactory.builder().provider("local").environment(Map.of("FACTORY_PROVIDERS_LOCAL_VOLUMES", "[" + tmp + "]")).stateDirectory(state)
                .config(FactoryConfig.builder().lifecycle(lifecycle).build()).build();
    }

    private SessionSpecBuilder spec(String id, Path repository) {
        return SessionSpec.builder(id).repository(repository.toString()).branch("work")
                .teardownCommands("echo " + id + " >> '" + teardownLog + "'");
    }

    private List<String> teardowns() throws IOException {
        return Files.exists(teardownLog) ? Files.readAllLines(teardownLog) : List.of();
    }

    private void makeIdle(SandboxFactory factory, String id, Duration ago) {
        factory.sessionStore().recordUse(id, Instant.now().minus(ago), Optional.empty());
    }

    @Test
    void retiresEverySessionOfALabelWithItsTeardownAndLeavesTheRest() throws IOException {
        try (SandboxFactory factory = factory()) {
            for (String id : List.of("a", "b", "c")) {
                factory.openSession(spec(id, remote).label("work-item", "7").build());
            }
            factory.openSession(spec("d", remote).label("work-item", "8").build());

            List<RetireResult> results = factory.fleet().retireAll(SessionSelector.label("work-item", "7"), RetireMode.DESTROY, 2);

            assertThat(results).extracting(RetireResult::sessionId).containsExactly("a", "b", "c");
            assertThat(results).extracting(RetireResult::outcome).containsOnly(RetireResult.Outcome.RETIRED);
            assertThat(teardowns()).containsExactlyInAnyOrder("a", "b", "c");
            for (String id : List.of("a", "b", "c")) {
                assertThat(state.resolve("sessions/" + id)).doesNotExist();
                assertThat(factory.sessionStore().find(id)).isEmpty();
            }
            assertThat(state.resolve("sessions/d/app")).isDirectory();
            assertThat(factory.session("d")).isPresent();
        }
    }

    @Test
    void anotherProcessRetiresARepositorysSessionsWithTheirTeardownAndKeepsTheirFiles() throws IOException {
        try (SandboxFactory opener = factory()) {
            opener.openSession(spec("r1", remote).build());
            opener.openSession(spec("r2", remote).build());
            opener.openSession(spec("o1", other).build());
        }
        try (SandboxFactory later = factory()) {
            List<RetireResult> results = later.fleet().retireAll(SessionSelector.repository(remote.toString()), RetireMode.STOP);

            assertThat(results).extracting(RetireResult::describe).containsExactly("retired r1", "retired r2");
            assertThat(teardowns()).containsExactlyInAnyOrder("r1", "r2");
            assertThat(state.resolve("sessions/r1/app/README.md")).isRegularFile();
            assertThat(later.sessionStore().find("r1").orElseThrow().stoppedAt()).isPresent();
            assertThat(later.sessionStore().find("o1").orElseThrow().stoppedAt()).isEmpty();
        }
    }

    @Test
    void aFailureIsReportedAndTheOthersAreStillRetired() throws IOException {
        try (SandboxFactory factory = factory()) {
            factory.openSession(spec("ok-1", remote).label("team", "infra").build());
            factory.openSession(spec("ok-2", remote).label("team", "infra").build());
            // A session of another provider cannot be retired by this one.
            factory.sessionStore().register(SessionDefinition.builder("elsewhere", remote.toString(), "work").provider("docker")
                    .labels(Map.of("team", "infra")).build());

            List<RetireResult> results = factory.fleet().retireAll(SessionSelector.label("team", "infra"), RetireMode.DESTROY);

            assertThat(results).extracting(RetireResult::sessionId).containsExactly("elsewhere", "ok-1", "ok-2");
            assertThat(results.get(0).failed()).isTrue();
            assertThat(results.get(0).describe()).contains("provider 'docker'");
            assertThat(results.subList(1, 3)).extracting(RetireResult::outcome).containsOnly(RetireResult.Outcome.RETIRED);
            assertThat(factory.sessionStore().find("elsewhere")).as("nothing of it touched").isPresent();
        }
    }

    @Test
    void theDryRunSaysWhatTheRealRunThenDoesForEachSession() throws IOException {
        try (SandboxFactory factory = factory()) {
            factory.openSession(spec("ok-1", remote).label("team", "infra").build());
            factory.sessionStore().register(SessionDefinition.builder("elsewhere", remote.toString(), "work").provider("docker")
                    .labels(Map.of("team", "infra")).build());
            SessionSelector selector = SessionSelector.label("team", "infra");

            List<RetireResult> plan = factory.fleet().planRetirement(selector);
            List<RetireResult> byIds = factory.fleet().planRetirement(List.of("elsewhere", "ok-1", "nobody"));
            List<RetireResult> real = factory.fleet().retireAll(selector, RetireMode.STOP);

            assertThat(plan).extracting(RetireResult::outcome).containsExactly(RetireResult.Outcome.FAILED, RetireResult.Outcome.WOULD_RETIRE);
            assertThat(byIds).extracting(RetireResult::outcome).containsExactly(RetireResult.Outcome.FAILED,
                    RetireResult.Outcome.WOULD_RETIRE, RetireResult.Outcome.UNKNOWN);
            assertThat(plan.get(0).problems()).isEqualTo(real.get(0).problems());
            assertThat(real).extracting(RetireResult::outcome).containsExactly(RetireResult.Outcome.FAILED, RetireResult.Outcome.RETIRED);
            assertThat(factory.fleet().retireEach(List.of("ok-1", "nobody"), RetireMode.DESTROY, 2)).extracting(RetireResult::outcome)
                    .containsExactly(RetireResult.Outcome.RETIRED, RetireResult.Outcome.UNKNOWN);
        }
    }

    @Test
    void idleMeansUnusedForThatLongAndTouchAndRunningCommandsKeepASessionBusy() throws Exception {
        try (SandboxFactory factory = factory(); SandboxFactory elsewhere = factory()) {
            SessionHandle thinking = factory.openSession(spec("thinking", remote).build());
            SessionHandle working = factory.openSession(spec("working", remote).build());
            factory.openSession(spec("idle", remote).build());
            for (String id : List.of("thinking", "working", "idle")) {
                makeIdle(factory, id, Duration.ofHours(2));
            }
            thinking.touch();
            Path started = tmp.resolve("started");
            CompletableFuture<?> command = CompletableFuture.runAsync(() -> working.executeCommand(
                    "touch '" + started + "'; while [ ! -f '" + tmp.resolve("release") + "' ]; do sleep 0.05; done", List.of(),
                    CommandOptions.builder().timeout(Duration.ofMinutes(2)).build()));
            awaitFile(started);
            makeIdle(factory, "working", Duration.ofHours(2));

            SessionSelector anHour = SessionSelector.idleFor(Duration.ofHours(1));
            assertThat(factory.fleet().selectSessions(anHour)).extracting(SessionRecord::sessionId).containsExactly("idle");
            assertThat(elsewhere.fleet().selectSessions(anHour)).as("in another process too").extracting(SessionRecord::sessionId)
                    .containsExactly("idle");

            Files.createFile(tmp.resolve("release"));
            command.get(2, TimeUnit.MINUTES);
        }
    }

    @Test
    void idlePoliciesStopAndDeleteSessionsIdleLongerThanConfigured() throws IOException {
        Lifecycle lifecycle = new Lifecycle(Optional.of(Duration.ofHours(1)), Optional.of(Duration.ofDays(7)));
        try (SandboxFactory factory = factory(lifecycle)) {
            for (String id : List.of("fresh", "an-hour", "a-week")) {
                factory.openSession(spec(id, remote).build());
            }
            makeIdle(factory, "an-hour", Duration.ofMinutes(90));
            makeIdle(factory, "a-week", Duration.ofDays(8));

            List<RetireResult> first = factory.fleet().applyIdlePolicies();
            List<RetireResult> second = factory.fleet().applyIdlePolicies();

            assertThat(first).extracting(RetireResult::describe).containsExactly("retired a-week", "retired an-hour");
            assertThat(factory.sessionStore().find("a-week")).isEmpty();
            assertThat(state.resolve("sessions/a-week")).doesNotExist();
            SessionRecord stopped = factory.sessionStore().find("an-hour").orElseThrow();
            assertThat(stopped.stoppedAt()).isPresent();
            assertThat(stopped.lastUsedAt()).as("stopping is no use").isBefore(Instant.now().minus(Duration.ofMinutes(80)));
            assertThat(state.resolve("sessions/an-hour/app/README.md")).isRegularFile();
            assertThat(factory.session("fresh")).isPresent();
            assertThat(second).as("a stopped session is not stopped again").isEmpty();
            assertThat(teardowns()).containsExactlyInAnyOrder("a-week", "an-hour");
        }
    }

    @Test
    void retiringASessionNobodyKnowsIsANoOpThatTouchesNoSandbox() {
        try (SandboxFactory maker = factory()) {
            maker.sandbox(FactorySandboxContext.of("ghost")).start();
        }
        assertThat(state.resolve("sessions/ghost")).isDirectory();
        try (SandboxFactory factory = factory()) {
            RetireResult result = factory.retire("ghost", RetireMode.DESTROY);

            assertThat(result.outcome()).isEqualTo(RetireResult.Outcome.UNKNOWN);
            assertThat(result.describe()).isEqualTo("no session 'ghost'");
            assertThat(state.resolve("sessions/ghost")).as("left for sweep").isDirectory();
        }
    }

    @Test
    void aSelectorMustNameSomethingAndLabelsAreChecked() {
        assertThatThrownBy(() -> new SessionSelector(Optional.empty(), Map.of(), Optional.empty()))
                .hasMessageContaining("needs a repository, a label or an idle time");
        assertThatThrownBy(() -> SessionSelector.label("bad key", "v")).hasMessageContaining("Label key 'bad key' is invalid");
        assertThatThrownBy(() -> SessionSelector.idleFor(Duration.ZERO)).hasMessageContaining("must be positive");
        try (SandboxFactory factory = factory()) {
            assertThatThrownBy(() -> factory.openSession(spec("x", remote).label("k", "white space").build()))
                    .hasMessageContaining("Label value 'white space' of key 'k' is invalid");
            assertThat(state.resolve("sessions/x")).doesNotExist();
        }
    }

    private static void awaitFile(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        while (!Files.exists(file) && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(file).exists();
    }

    // ---- the sessions of runs whose process died (what factory sweep destroys first) ----------------

    private SessionSpec runSpec(String id) {
        return spec(id, remote).build();
    }

    @Test
    void anIdleSelectionNeverPicksTheSessionOfALiveRunInDryRunOrRealRun() throws Exception {
        try (SandboxFactory first = factory()) {
            first.openSession(runSpec("live-run").ephemeralFor(HostProcess.current()));
            first.openSession(runSpec("dead-run").ephemeralFor(DeadHosts.exited()));
        }
        try (SandboxFactory factory = factory()) {
            makeIdle(factory, "live-run", Duration.ofHours(2));
            makeIdle(factory, "dead-run", Duration.ofHours(2));
            SessionSelector idle = SessionSelector.idleFor(Duration.ofHours(1));

            assertThat(factory.fleet().planRetirement(idle)).extracting(RetireResult::describe).containsExactly("would retire dead-run");
            assertThat(factory.fleet().retireAll(idle, RetireMode.STOP)).extracting(RetireResult::describe).containsExactly("retired dead-run");
        }
    }

    @Test
    void theSessionOfARunWhoseProcessIsGoneIsDestroyedWithItsTeardownAndNoOtherOne() throws Exception {
        HostProcess dead = DeadHosts.exited();
        try (SandboxFactory first = factory()) {
            first.openSession(runSpec("dead-run").ephemeralFor(dead));
            first.openSession(runSpec("live-run").ephemeralFor(HostProcess.current()));
            first.openSession(runSpec("remote-run").ephemeralFor(new HostProcess("another-host.example", dead.pid(), -1, "")));
            first.openSession(runSpec("opened"));
            first.openSession(runSpec("claimed").ephemeralFor(dead));
        }
        try (SandboxFactory second = factory()) {
            second.openSession(runSpec("claimed"));
        }

        try (SandboxFactory sweeper = factory()) {
            List<RetireResult> results = sweeper.fleet().destroyAbandonedRuns();

            assertThat(results).extracting(RetireResult::describe).containsExactly("retired dead-run");
            assertThat(sweeper.sessionStore().list()).extracting(SessionRecord::sessionId)
                    .containsExactly("claimed", "live-run", "opened", "remote-run");
            assertThat(teardowns()).containsExactly("dead-run");
            assertThat(state.resolve("sessions/dead-run")).doesNotExist();
            assertThat(sweeper.fleet().destroyAbandonedRuns()).as("nothing left to destroy").isEmpty();
        }
    }

    @Test
    void aDeadRunsSessionThatThisFactoryHoldsIsLeftAlone() throws Exception {
        try (SandboxFactory factory = factory()) {
            factory.openSession(runSpec("held").ephemeralFor(DeadHosts.exited()));

            assertThat(factory.fleet().destroyAbandonedRuns()).isEmpty();
            assertThat(factory.sessionStore().find("held")).isPresent();
        }
    }

    @Test
    void aRunsOwnerIsKeptWhenItsSessionIsResumedFromTheStore() throws Exception {
        HostProcess dead = DeadHosts.exited();
        try (SandboxFactory first = factory()) {
            first.openSession(runSpec("resumed").ephemeralFor(dead));
        }
        try (SandboxFactory second = factory()) {
            SessionRecord stored = second.sessionStore().find("resumed").orElseThrow();
            second.openSession(SessionSpec.resume(stored.definition()).build()).awaitStarted();

            assertThat(second.sessionStore().find("resumed").orElseThrow().definition().ephemeralOwner()).contains(dead);
        }
    }

    @Test
    void aSelectorNamesItsIdleTimeAsWritten() {
        assertThat(SessionSelector.idleFor(java.time.Duration.ofSeconds(1)).and(SessionSelector.label("team", "a")))
                .hasToString("label team=a, idle for 1s");
    }
}
