package io.sandboxfactory.tck;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.store.api.EnvironmentDefinition;
import io.sandboxfactory.store.api.Fence;
import io.sandboxfactory.store.api.FencedOutException;
import io.sandboxfactory.store.api.JournalEntry;
import io.sandboxfactory.store.api.LeaseAttempt;
import io.sandboxfactory.store.api.LeaseOwner;
import io.sandboxfactory.store.api.SessionDefinition;
import io.sandboxfactory.store.api.SessionRecord;
import io.sandboxfactory.store.api.SessionEgress;
import io.sandboxfactory.store.api.SessionStore;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * The rules every {@link SessionStore} keeps (design §5.9, §5.15), for the stores of this repository
 * and for third-party ones: extend it and say how to open your store.
 *
 * <pre>{@code
 * class MyStoreContractTest extends SessionStoreContract {
 *     protected SessionStore openStore() { return MyStore.connect(url); }
 * }
 * }</pre>
 *
 * {@link #openStore()} is called twice per test, and both instances must reach the same data, as two
 * processes (or two hosts) would: every cross-process rule is checked between them. Each test uses
 * session ids of its own, so the backing may be shared by all tests (and keep what they leave).
 */
@Timeout(value = 2, unit = TimeUnit.MINUTES)
public abstract class SessionStoreContract {

    /** The shortest lease the {@code SessionLeases} of the core accepts; expiry cases wait this long. */
    private static final Duration SHORT = Duration.ofMillis(300);
    private static final Duration LONG = Duration.ofMinutes(5);
    /** How long a condition may take to hold before the case fails. */
    private static final Duration PATIENCE = Duration.ofSeconds(30);

    /** One store instance on the backing under test; the caller closes it. */
    protected abstract SessionStore openStore();

    protected SessionStore store;
    protected SessionStore other;
    private String prefix;

    @BeforeEach
    void openTwoInstances() {
        store = openStore();
        other = openStore();
        prefix = "contract-" + UUID.randomUUID().toString().substring(0, 8) + "-";
    }

    @AfterEach
    void closeThem() {
        if (store != null) {
            store.close();
        }
        if (other != null) {
            other.close();
        }
    }

    /** A session id of this test alone. */
    protected String id(String name) {
        return prefix + name;
    }

    private static SessionDefinition definition(String id, Map<String, String> labels) {
        return SessionDefinition.builder(id, "owner/repo", "feature/x").baseBranch("main").setupCommands(List.of("make setup", "make more"))
                .teardownCommands(List.of("make clean")).provider("local").labels(labels).build();
    }

    private static LeaseOwner ownerOn(String host, long pid) {
        return new LeaseOwner(UUID.randomUUID().toString(), host, pid, Optional.of(Instant.now()), "");
    }

    // ---- records ------------------------------------------------------------------------------------

    @Test
    @DisplayName("a registered session reads back whole, from the other instance too")
    void registeredSessionsReadBack() {
        String id = id("round-trip");
        SessionRecord registered = store.register(definition(id, Map.of("team", "infra")));
        assertEquals(definition(id, Map.of("team", "infra")), registered.definition());
        SessionRecord seen = other.find(id).orElseThrow(() -> new AssertionError("the other instance does not see session " + id));
        assertEquals(registered.definition(), seen.definition());
        assertEquals(0, seen.generation(), "a new session's generation");
        assertTrue(seen.sandboxId().isEmpty() && seen.workdir().isEmpty() && seen.materializedAt().isEmpty(), "no start yet: " + seen);
        assertTrue(other.list().stream().anyMatch(r -> r.sessionId().equals(id)), "list() holds the session");
        assertTrue(store.find(id("never-registered")).isEmpty(), "an unknown session reads as empty");
    }

    // ---- command journal ----------------------------------------------------------------------------

    @Test
    @DisplayName("the command journal keeps the newest entries, oldest first, seen by the other instance, and goes with the session")
    void theJournalKeepsTheNewestEntriesAndGoesWithTheSession() {
        String id = id("journal");
        store.register(definition(id, Map.of()));
        Instant start = Instant.ofEpochMilli(1_700_000_000_000L);
        for (int i = 1; i <= 3; i++) {
            store.appendJournal(new JournalEntry(id, start.plusSeconds(i), Duration.ofMillis(10L * i), "cli", "echo " + i, i, i == 3,
                    "out " + i + (i == 2 ? "\0nul" : ""), "err " + i), 2);
        }
        List<JournalEntry> kept = other.journal(id, 10);
        assertEquals(List.of("echo 2", "echo 3"), kept.stream().map(JournalEntry::command).toList(), "the newest two, oldest first");
        JournalEntry last = kept.get(1);
        assertEquals(start.plusSeconds(3), last.startedAt());
        assertEquals(Duration.ofMillis(30), last.duration());
        assertEquals(3, last.exitCode());
        assertTrue(last.timedOut(), "timed out");
        assertEquals("err 3", last.stderrTail());
        assertEquals("out 2\uFFFDnul", kept.get(0).stdoutTail(), "a NUL character in output is kept as U+FFFD");
        assertEquals(List.of("echo 3"), other.journal(id, 1).stream().map(JournalEntry::command).toList(), "a limit keeps the newest");

        store.delete(id);
        assertTrue(other.journal(id, 10).isEmpty(), "deleting the session deletes its journal");
    }

    @Test
    @DisplayName("a session's own egress rules are kept, replaced whole, seen by the other instance, and go with the session")
    void egressRulesAreKeptAndGoWithTheSession() {
        String id = id("egress");
        store.register(definition(id, Map.of()));
        assertEquals(SessionEgress.NONE, other.egress(id), "no rules until some are recorded");
        store.recordEgress(id, new SessionEgress(List.of("api.example.com", "*.example.org:443"), List.of("gist.example.com")));
        assertEquals(new SessionEgress(List.of("api.example.com", "*.example.org:443"), List.of("gist.example.com")), other.egress(id));
        other.recordEgress(id, new SessionEgress(List.of("api.example.com"), List.of()));
        assertEquals(new SessionEgress(List.of("api.example.com"), List.of()), store.egress(id), "a record replaces the rules whole");

        store.delete(id);
        assertEquals(SessionEgress.NONE, other.egress(id), "deleting the session deletes its rules");
    }

    @Test
    @DisplayName("a reopen keeps what starts recorded and a resolved base, and adds labels")
    void reregisteringKeepsStartStateAndAddsLabels() {
        String id = id("reopen");
        store.register(SessionDefinition.builder(id, "owner/repo", "b1").provider("local").labels(Map.of("a", "1")).build());
        store.recordBaseBranch(id, "develop");
        Instant materialized = Instant.ofEpochMilli(1_700_000_000_000L);
        store.recordStart(id, Optional.of("sbx-1"), "/work/root", materialized);
        SessionRecord again = other.register(SessionDefinition.builder(id, "owner/repo", "b2").setupCommands(List.of("npm ci"))
                .provider("local").labels(Map.of("b", "2")).build());
        assertEquals("b2", again.definition().branch());
        assertEquals(Optional.of("develop"), again.definition().baseBranch(), "an open naming no base keeps the resolved one");
        assertEquals(Map.of("a", "1", "b", "2"), again.definition().labels(), "labels are added, never dropped");
        assertEquals(Optional.of("sbx-1"), again.sandboxId());
        assertEquals(Optional.of("/work/root"), again.workdir());
        assertEquals(Optional.of(materialized), again.materializedAt());
    }

    @Test
    @DisplayName("the setup secrets' names an open gave are kept in order, replaced by an open naming others, kept by one naming none")
    void setupSecretNamesAreKept() {
        String id = id("secrets");
        store.register(withSetupSecrets(id, Optional.of(List.of("NPM_TOKEN", "PIP_TOKEN"))));
        assertEquals(Optional.of(List.of("NPM_TOKEN", "PIP_TOKEN")), other.find(id).orElseThrow().definition().setupSecrets(),
                "read back by the other instance, in order");
        other.register(withSetupSecrets(id, Optional.empty()));
        assertEquals(Optional.of(List.of("NPM_TOKEN", "PIP_TOKEN")), store.find(id).orElseThrow().definition().setupSecrets(),
                "an open naming none keeps them");
        store.register(withSetupSecrets(id, Optional.of(List.of())));
        assertEquals(Optional.of(List.of()), other.find(id).orElseThrow().definition().setupSecrets(), "an open naming an empty list replaces them");
        String plain = id("no-secrets");
        store.register(definition(plain, Map.of()));
        assertEquals(Optional.empty(), other.find(plain).orElseThrow().definition().setupSecrets(), "a session no open named any for");
    }

    private static SessionDefinition withSetupSecrets(String id, Optional<List<String>> names) {
        return new SessionDefinition(id, "owner/repo", "b", Optional.empty(), List.of("npm ci"), List.of(), Optional.of("local"), Map.of(),
                Optional.empty(), Optional.empty(), names);
    }

    @Test
    @DisplayName("a run's owner is kept with its session until an open without one clears it")
    void ephemeralOwners() {
        String id = id("run");
        HostProcess owner = new HostProcess("host-a", 4242, 1_700_000_000_000L, "boot-1:12345");
        SessionDefinition run = SessionDefinition.builder(id, "owner/repo", "b").provider("local").ephemeralOwner(owner).build();
        store.register(run);
        assertEquals(Optional.of(owner), other.find(id).orElseThrow().definition().ephemeralOwner(), "read back by another instance");
        assertEquals(Optional.of(owner), other.list().stream().filter(r -> r.sessionId().equals(id)).findFirst().orElseThrow()
                .definition().ephemeralOwner(), "listed with its owner");

        other.register(SessionDefinition.builder(id, "owner/repo", "b").provider("local").build());
        assertEquals(Optional.empty(), store.find(id).orElseThrow().definition().ephemeralOwner(), "an open without an owner claims the session");

        HostProcess unstamped = new HostProcess("host-b", 7, -1, "");
        store.register(SessionDefinition.builder(id, "owner/repo", "b").provider("local").ephemeralOwner(unstamped).build());
        assertEquals(Optional.of(unstamped), other.find(id).orElseThrow().definition().ephemeralOwner(), "an owner without a start stamp");
    }

    @Test
    @DisplayName("an environment's repositories and their setup states round-trip")
    void environmentsRoundTrip() {
        String id = id("env");
        EnvironmentDefinition env = new EnvironmentDefinition(List.of(
                new EnvironmentDefinition.RepositoryDefinition("acme/api", "api", Optional.empty(), List.of("make deps"), List.of("make clean")),
                new EnvironmentDefinition.RepositoryDefinition("acme/ui", "frontend", Optional.of("develop"), List.of("npm ci"), List.of())),
                List.of("./link"), List.of("echo bye"));
        store.register(SessionDefinition.builder(id, "acme/api", "feature").provider("local").environment(env).build());
        SessionRecord seen = other.find(id).orElseThrow();
        assertEquals(Optional.of(env), seen.definition().environment());
        assertEquals(List.of("api", "frontend"), List.copyOf(seen.setupStates().keySet()), "setup states in position order");
        assertEquals(Set.of("pending"), Set.copyOf(seen.setupStates().values()), "before any start every repository is pending");
        store.recordSetupStates(id, Map.of("api", "done", "frontend", "failed"));
        assertEquals(Map.of("api", "done", "frontend", "failed"), other.find(id).orElseThrow().setupStates());
    }

    @Test
    @DisplayName("uses, busy marks, stops and freshness are recorded")
    void usesAndMarks() {
        String id = id("marks");
        store.register(definition(id, Map.of()));
        Instant used = Instant.ofEpochMilli(1_800_000_000_000L);
        store.recordUse(id, used, Optional.of(used.plusSeconds(60)));
        store.recordBusy(id, used.plusSeconds(30));
        SessionRecord seen = other.find(id).orElseThrow();
        assertEquals(used, seen.lastUsedAt());
        assertEquals(Optional.of(used.plusSeconds(60)), seen.busyUntil(), "a busy mark never moves back");
        store.recordStopped(id, used.plusSeconds(5));
        store.recordFreshness(id, "behind 2, dirty");
        seen = other.find(id).orElseThrow();
        assertEquals(Optional.of(used.plusSeconds(5)), seen.stoppedAt());
        assertEquals(Optional.of("behind 2, dirty"), seen.freshness());
        store.recordStart(id, Optional.empty(), "/root", used);
        assertTrue(other.find(id).orElseThrow().stoppedAt().isEmpty(), "a start clears the stop mark");
        store.recordUse(id("unknown"), used, Optional.empty());
        assertTrue(store.find(id("unknown")).isEmpty(), "using an unknown session creates no record");
    }

    @Test
    @DisplayName("running commands are seen from the other instance until they end or their mark lapses")
    void runningCommands() {
        String id = id("running");
        String quiet = id("quiet");
        store.register(definition(id, Map.of()));
        store.register(definition(quiet, Map.of()));
        Instant now = Instant.ofEpochMilli(1_800_000_000_000L);
        store.recordCommand(id, "c1", now, Optional.of(now.plusSeconds(60)));
        store.recordCommand(id, "c2", now, Optional.of(now.plusSeconds(60)));
        assertTrue(other.sessionsRunningCommands(now).contains(id), "a command runs");
        assertFalse(other.sessionsRunningCommands(now).contains(quiet), "no command runs in the other session");
        assertEquals(Optional.of(now.plusSeconds(60)), other.find(id).orElseThrow().busyUntil(), "a running command marks it busy");
        store.recordCommand(id, "c1", now.plusSeconds(1), Optional.empty());
        assertTrue(other.sessionsRunningCommands(now.plusSeconds(1)).contains(id), "one command still runs");
        assertEquals(now.plusSeconds(1), other.find(id).orElseThrow().lastUsedAt(), "an end is a use");
        assertFalse(other.sessionsRunningCommands(now.plusSeconds(61)).contains(id), "a mark not renewed lapses");
        store.recordCommand(id, "c2", now.plusSeconds(2), Optional.of(now.plusSeconds(120)));
        assertTrue(other.sessionsRunningCommands(now.plusSeconds(61)).contains(id), "a renewed mark holds");
        store.recordCommand(id, "c2", now.plusSeconds(3), Optional.empty());
        assertFalse(other.sessionsRunningCommands(now.plusSeconds(3)).contains(id), "every command ended");
        store.recordCommand(id, "c3", now, Optional.of(now.plusSeconds(60)));
        store.delete(id);
        assertFalse(other.sessionsRunningCommands(now).contains(id), "a deleted session runs nothing");
    }

    @Test
    @DisplayName("generations grow, are shared, and survive deleting the session")
    void generations() {
        String id = id("generation");
        store.register(definition(id, Map.of()));
        assertEquals(0, other.generation(id));
        assertEquals(1, store.bumpGeneration(id));
        assertEquals(2, other.bumpGeneration(id));
        assertEquals(2, store.generation(id));
        assertEquals(2, store.find(id).orElseThrow().generation());
        assertTrue(store.delete(id));
        assertFalse(other.delete(id), "a second delete finds nothing");
        assertTrue(other.find(id).isEmpty());
        assertEquals(2, other.generation(id), "a deleted session keeps its generation, so stale work stays stale");
    }

    @Test
    @DisplayName("failed setup commands are recorded in order, shared, cleared, and deleted with the session")
    void failedSetupCommands() {
        String id = id("failed");
        store.register(definition(id, Map.of()));
        store.recordFailedSetupCommand(id, "make setup");
        other.recordFailedSetupCommand(id, "npm ci");
        store.recordFailedSetupCommand(id, "make setup");
        assertEquals(Set.of("make setup", "npm ci"), other.failedSetupCommands(id));
        other.clearFailedSetupCommands(id);
        assertTrue(store.failedSetupCommands(id).isEmpty());
        store.recordFailedSetupCommand(id, "make setup");
        store.delete(id);
        assertTrue(other.failedSetupCommands(id).isEmpty(), "deleting the session deletes its failed setup commands");
    }

    // ---- leases -------------------------------------------------------------------------------------

    @Test
    @DisplayName("a lease belongs to one owner across instances until released")
    void leasesAreExclusive() {
        String id = id("lease");
        LeaseOwner a = LeaseOwner.forThisProcess();
        LeaseOwner b = LeaseOwner.forThisProcess();
        LeaseAttempt held = store.tryAcquireLease(id, a, LONG);
        assertTrue(held.acquired(), "a free lease is taken");
        assertEquals(a, held.holder());
        LeaseAttempt refused = other.tryAcquireLease(id, b, LONG);
        assertFalse(refused.acquired(), "a held lease is refused to another owner, from another instance");
        assertEquals(a.id(), refused.holder().id(), "a refusal names the holder");
        assertTrue(refused.expiresAt().isAfter(Instant.now().plus(LONG).minus(Duration.ofMinutes(2))),
                "a refusal says until when the holder's lease runs: " + refused.expiresAt());
        assertTrue(other.tryAcquireLease(id("lease-other"), b, LONG).acquired(), "other sessions' leases are free");
        other.releaseLease(id, b.id(), held.fence());
        assertFalse(other.tryAcquireLease(id, b, LONG).acquired(), "only the holder releases");
        store.releaseLease(id, a.id(), held.fence());
        LeaseAttempt next = other.tryAcquireLease(id, b, LONG);
        assertTrue(next.acquired(), "a released lease is free");
        assertTrue(next.replaced().isEmpty(), "a released lease replaces nobody: " + next.replaced());
    }

    @Test
    @DisplayName("every acquisition gets a larger fencing token, also the same owner's and after a delete")
    void tokensGrow() {
        String id = id("tokens");
        LeaseOwner a = LeaseOwner.forThisProcess();
        LeaseOwner b = LeaseOwner.forThisProcess();
        List<Long> tokens = new ArrayList<>();
        LeaseAttempt first = store.tryAcquireLease(id, a, LONG);
        tokens.add(first.fencingToken());
        LeaseAttempt again = store.tryAcquireLease(id, a, LONG);
        assertTrue(again.acquired(), "the holder may acquire again");
        tokens.add(again.fencingToken());
        store.releaseLease(id, a.id(), again.fence());
        LeaseAttempt byB = other.tryAcquireLease(id, b, LONG);
        tokens.add(byB.fencingToken());
        store.register(definition(id, Map.of()));
        other.delete(id, byB.fence());
        other.releaseLease(id, b.id(), byB.fence());
        tokens.add(store.tryAcquireLease(id, a, LONG).fencingToken());
        assertTrue(tokens.get(0) > 0, "tokens are positive (0 means unfenced): " + tokens);
        for (int i = 1; i < tokens.size(); i++) {
            assertTrue(tokens.get(i) > tokens.get(i - 1), "tokens in acquisition order must grow: " + tokens);
        }
    }

    @Test
    @DisplayName("an expired lease is taken over, names the owner it replaced, and its renewal fails")
    void expiredLeasesAreTakenOver() {
        String id = id("expiry");
        LeaseOwner crashed = LeaseOwner.forThisProcess();
        LeaseOwner next = LeaseOwner.forThisProcess();
        LeaseAttempt old = store.tryAcquireLease(id, crashed, SHORT);
        assertTrue(old.acquired());
        assertTrue(store.renewLease(id, crashed.id(), old.fence(), SHORT), "the holder renews its lease");
        LeaseAttempt taken = awaitAcquired(other, id, next);
        assertEquals(Optional.of(crashed.id()), taken.replaced().map(LeaseOwner::id), "the take-over names the owner it replaced");
        assertTrue(taken.fencingToken() > old.fencingToken(), "the take-over's token is larger");
        assertFalse(store.renewLease(id, crashed.id(), old.fence(), LONG), "the replaced owner's renewal fails");
        assertFalse(store.tryAcquireLease(id, crashed, LONG).acquired(), "and it cannot take the lease back while the new one runs");
    }

    @Test
    @DisplayName("a provably gone owner on this host is replaced at once; one on another host only by expiry")
    void deadOwners() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        Optional<Instant> started = gone.info().startInstant();
        assertTrue(gone.waitFor(30, TimeUnit.SECONDS));
        LeaseOwner dead = new LeaseOwner("dead-" + UUID.randomUUID(), HostProcess.current().host(), gone.pid(), started, "");
        LeaseOwner remote = new LeaseOwner("remote-" + UUID.randomUUID(), "another-host.invalid", gone.pid(), started, "");
        LeaseOwner me = LeaseOwner.forThisProcess();
        assertTrue(store.tryAcquireLease(id("dead"), dead, LONG).acquired());
        LeaseAttempt taken = other.tryAcquireLease(id("dead"), me, LONG);
        assertTrue(taken.acquired(), "the lease of a process that is provably gone is taken at once");
        assertEquals(Optional.of(dead.id()), taken.replaced().map(LeaseOwner::id));
        assertTrue(store.tryAcquireLease(id("remote"), remote, LONG).acquired());
        assertFalse(other.tryAcquireLease(id("remote"), me, LONG).acquired(),
                "an owner on another host is never judged dead by its pid");
    }

    @Test
    @DisplayName("a live owner whose start instant a wall-clock step moved keeps its lease: the store keeps its start stamp")
    void liveOwnerAfterAClockStep() {
        LeaseOwner self = LeaseOwner.forThisProcess();
        assumeFalse(self.processStartStamp().isEmpty(), "a platform that stamps process starts (Linux)");
        assertALiveHolderKeepsItsLease("stepped", new LeaseOwner(self.id(), self.host(), self.pid(),
                Optional.of(self.processStart().orElse(Instant.now()).minus(Duration.ofMinutes(1))), self.processStartStamp()));
    }

    @Test
    @DisplayName("a live owner whose process start is unknown keeps its lease: no start is not a start at another time")
    void liveOwnerWithUnknownStart() {
        LeaseOwner self = LeaseOwner.forThisProcess();
        assertALiveHolderKeepsItsLease("unknown-start", new LeaseOwner(self.id(), self.host(), self.pid(), Optional.empty(), ""));
    }

    private void assertALiveHolderKeepsItsLease(String session, LeaseOwner holder) {
        assertTrue(store.tryAcquireLease(id(session), holder, LONG).acquired());
        LeaseAttempt refused = other.tryAcquireLease(id(session), LeaseOwner.forThisProcess(), LONG);
        assertFalse(refused.acquired(), "the holder is alive, so its lease is not free");
        assertEquals(holder, refused.holder(), "the holder as it was stored");
    }

    @Test
    @DisplayName("many threads on two instances racing for one lease: exactly one wins")
    void oneWinnerUnderContention() throws Exception {
        String id = id("race");
        int threads = 16;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<LeaseAttempt>> attempts = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                SessionStore instance = i % 2 == 0 ? store : other;
                LeaseOwner owner = LeaseOwner.forThisProcess();
                attempts.add(pool.submit(() -> {
                    go.await();
                    return instance.tryAcquireLease(id, owner, LONG);
                }));
            }
            go.countDown();
            List<LeaseAttempt> results = new ArrayList<>();
            for (Future<LeaseAttempt> f : attempts) {
                results.add(f.get(PATIENCE.toSeconds(), TimeUnit.SECONDS));
            }
            List<LeaseAttempt> winners = results.stream().filter(LeaseAttempt::acquired).toList();
            assertEquals(1, winners.size(), "winners: " + winners);
            // A refused attempt that raced the winner's insert may not know the holder yet; the lease says it now.
            assertFalse(store.tryAcquireLease(id, LeaseOwner.forThisProcess(), LONG).acquired());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    @DisplayName("fencing tokens stay unique when owners acquire and release concurrently")
    void tokensAreUniqueUnderContention() throws Exception {
        String id = id("unique");
        int threads = 6;
        int rounds = 15;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<List<Long>>> work = new ArrayList<>();
            for (int i = 0; i < threads; i++) {
                SessionStore instance = i % 2 == 0 ? store : other;
                LeaseOwner owner = LeaseOwner.forThisProcess();
                work.add(pool.submit(() -> {
                    List<Long> mine = new ArrayList<>();
                    long deadline = System.nanoTime() + PATIENCE.toNanos();
                    while (mine.size() < rounds && System.nanoTime() < deadline) {
                        LeaseAttempt attempt = instance.tryAcquireLease(id, owner, LONG);
                        if (attempt.acquired()) {
                            mine.add(attempt.fencingToken());
                            instance.releaseLease(id, owner.id(), attempt.fence());
                        } else {
                            Thread.onSpinWait();
                        }
                    }
                    return mine;
                }));
            }
            Set<Long> seen = new HashSet<>();
            int total = 0;
            for (Future<List<Long>> f : work) {
                List<Long> mine = f.get(PATIENCE.toSeconds() * 2, TimeUnit.SECONDS);
                assertEquals(rounds, mine.size(), "every owner got the lease " + rounds + " times within " + PATIENCE);
                seen.addAll(mine);
                total += mine.size();
            }
            assertEquals(total, seen.size(), "no token was handed out twice");
        } finally {
            pool.shutdownNow();
        }
    }

    // ---- fencing ------------------------------------------------------------------------------------

    @Test
    @DisplayName("writes under a replaced lease are refused and change nothing; the new owner's pass")
    void staleWritesAreRefused() {
        String id = id("fenced");
        store.register(SessionDefinition.builder(id, "acme/api", "feature").provider("local")
                .environment(new EnvironmentDefinition(List.of(new EnvironmentDefinition.RepositoryDefinition("acme/api", "api",
                        Optional.empty(), List.of("make"), List.of())), List.of(), List.of())).build());
        LeaseOwner paused = LeaseOwner.forThisProcess();
        LeaseOwner successor = LeaseOwner.forThisProcess();
        LeaseAttempt old = store.tryAcquireLease(id, paused, SHORT);
        LeaseAttempt current = awaitAcquired(other, id, successor);
        Fence stale = old.fence();
        Fence fresh = current.fence();
        assertNotEquals(stale, fresh);

        other.recordStart(id, Optional.of("new-sandbox"), "/new", Instant.ofEpochMilli(2_000), fresh);
        refused("recordStart", () -> store.recordStart(id, Optional.of("old-sandbox"), "/old", Instant.ofEpochMilli(1_000), stale));
        refused("recordSetupStates", () -> store.recordSetupStates(id, Map.of("api", "failed"), stale));
        refused("recordFailedSetupCommand", () -> store.recordFailedSetupCommand(id, "make", stale));
        refused("requireFence", () -> store.requireFence(id, stale));
        refused("delete", () -> store.delete(id, stale));

        SessionRecord after = other.find(id).orElseThrow(() -> new AssertionError("a refused delete deleted the session"));
        assertEquals(Optional.of("new-sandbox"), after.sandboxId(), "a refused recordStart changed the sandbox id");
        assertEquals(Optional.of("/new"), after.workdir());
        assertEquals(Map.of("api", "pending"), after.setupStates(), "a refused recordSetupStates changed the states");
        assertTrue(other.failedSetupCommands(id).isEmpty(), "a refused recordFailedSetupCommand recorded the command");

        other.requireFence(id, fresh);
        other.recordSetupStates(id, Map.of("api", "done"), fresh);
        other.recordFailedSetupCommand(id, "make", fresh);
        assertEquals(Map.of("api", "done"), store.find(id).orElseThrow().setupStates());
        assertEquals(Set.of("make"), store.failedSetupCommands(id));
        store.recordStart(id, Optional.of("unfenced"), "/u", Instant.ofEpochMilli(3_000), Fence.NONE);
        assertEquals(Optional.of("unfenced"), other.find(id).orElseThrow().sandboxId(), "an unfenced write is never refused");
        assertTrue(other.delete(id, fresh), "the current owner deletes");
    }

    @Test
    @DisplayName("a released lease fences its holder's later writes once another owner acquired it")
    void releaseThenReacquireFences() {
        String id = id("released");
        store.register(definition(id, Map.of()));
        LeaseOwner a = LeaseOwner.forThisProcess();
        LeaseAttempt first = store.tryAcquireLease(id, a, LONG);
        store.recordStart(id, Optional.of("s1"), "/r", Instant.ofEpochMilli(1), first.fence());
        store.releaseLease(id, a.id(), first.fence());
        store.recordStart(id, Optional.of("s2"), "/r", Instant.ofEpochMilli(2), first.fence());
        assertEquals(Optional.of("s2"), other.find(id).orElseThrow().sandboxId(), "no newer token yet: the write passes");
        LeaseAttempt second = other.tryAcquireLease(id, LeaseOwner.forThisProcess(), LONG);
        assertTrue(second.acquired());
        refused("recordStart", () -> store.recordStart(id, Optional.of("s3"), "/r", Instant.ofEpochMilli(3), first.fence()));
        assertEquals(Optional.of("s2"), other.find(id).orElseThrow().sandboxId());
    }

    private static void refused(String what, Runnable write) {
        FencedOutException e = assertThrows(FencedOutException.class, write::run,
                what + " with a stale fencing token must be refused with FencedOutException");
        assertTrue(e.currentToken() > e.refusedToken(), what + ": " + e.getMessage());
        assertEquals(StandardErrorCode.LEASE_LOST.toErrorCode(), e.errorCode());
    }

    /** Asks for the lease until it is granted (the current lease expires by the store's clock). */
    private static LeaseAttempt awaitAcquired(SessionStore on, String id, LeaseOwner owner) {
        long deadline = System.nanoTime() + PATIENCE.toNanos();
        while (true) {
            LeaseAttempt attempt = on.tryAcquireLease(id, owner, LONG);
            if (attempt.acquired()) {
                return attempt;
            }
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the lease of " + id + " did not expire within " + PATIENCE + "; still held by "
                        + attempt.holder() + " until " + attempt.expiresAt());
            }
            pause();
        }
    }

    /** A short pause between polls of a condition (not a wait for time: the loop checks the condition). */
    private static void pause() {
        try {
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
