package io.sandboxfactory.core.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;

import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import io.sandboxfactory.store.api.EnvironmentDefinition;
import io.sandboxfactory.store.api.LeaseAttempt;
import io.sandboxfactory.store.api.LeaseOwner;
import io.sandboxfactory.store.api.SessionDefinition;
import io.sandboxfactory.store.api.SessionRecord;

import static org.assertj.core.api.Assertions.assertThat;

class SqliteSessionStoreTest {

    @TempDir
    Path state;

    private static SessionDefinition definition(String id) {
        return SessionDefinition.builder(id, "owner/repo", "feature/x").baseBranch("main").setupCommands(List.of("make setup"))
                .teardownCommands(List.of("make clean")).provider("local").build();
    }

    @Test
    void createsTheSchemaInTheStateDirectoryAndTracksItsVersion() throws Exception {
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state)) {
            assertThat(store.file()).isEqualTo(state.resolve("sessions.db").toAbsolutePath());
            assertThat(store.schemaVersion()).isEqualTo(10);
        }
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + state.resolve("sessions.db"));
             Statement s = c.createStatement();
             ResultSet journal = s.executeQuery("PRAGMA journal_mode")) {
            journal.next();
            assertThat(journal.getString(1)).isEqualToIgnoringCase("wal");
        }
        // Reopening an up-to-date file keeps its version and data.
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state)) {
            assertThat(store.schemaVersion()).isEqualTo(10);
        }
    }

    /** A store written by the first release (schema 1): it opens, is migrated, and its session keeps working. */
    @Test
    void aStoreOfTheFirstSchemaIsMigratedAndKeepsItsSessions() throws Exception {
        java.nio.file.Files.createDirectories(state);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + state.resolve("sessions.db"));
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE schema_version (version INTEGER NOT NULL)");
            s.execute("INSERT INTO schema_version (version) VALUES (1)");
            s.execute("CREATE TABLE sessions (session_id TEXT PRIMARY KEY, repository TEXT NOT NULL, branch TEXT NOT NULL,"
                    + " base_branch TEXT NOT NULL, setup_commands TEXT NOT NULL, teardown_commands TEXT NOT NULL,"
                    + " provider TEXT, sandbox_id TEXT, workdir TEXT, materialized_at INTEGER,"
                    + " created_at INTEGER NOT NULL, last_used_at INTEGER NOT NULL)");
            s.execute("CREATE TABLE session_generations (session_id TEXT PRIMARY KEY, generation INTEGER NOT NULL)");
            s.execute("CREATE TABLE failed_setup_commands (session_id TEXT NOT NULL, command TEXT NOT NULL,"
                    + " failed_at INTEGER NOT NULL, PRIMARY KEY (session_id, command))");
            s.execute("CREATE TABLE session_leases (session_id TEXT PRIMARY KEY, owner_id TEXT NOT NULL, host TEXT NOT NULL,"
                    + " pid INTEGER NOT NULL, process_start INTEGER, expires_at INTEGER NOT NULL)");
            s.execute("INSERT INTO sessions VALUES ('old', 'owner/repo', 'work', 'main', '[\"make\"]', '[]', 'local', NULL,"
                    + " '/sessions/old', 5, 1, 2)");
            s.execute("INSERT INTO session_leases VALUES ('old', 'gone-owner', 'nowhere.invalid', 1, NULL, 3)");
        }

        try (SqliteSessionStore store = SqliteSessionStore.openIn(state)) {
            assertThat(store.schemaVersion()).isEqualTo(10);
            LeaseAttempt taken = store.tryAcquireLease("old", LeaseOwner.forThisProcess(), Duration.ofSeconds(30));
            assertThat(taken.acquired()).as("the expired lease of schema 1 is free").isTrue();
            assertThat(taken.replaced().map(LeaseOwner::id)).contains("gone-owner");
            assertThat(taken.fencingToken()).as("the migrated lease counted as token 1").isEqualTo(2);
            SessionRecord old = store.find("old").orElseThrow();
            assertThat(old.definition().baseBranch()).contains("main");
            assertThat(old.definition().setupCommands()).containsExactly("make");
            assertThat(old.definition().labels()).isEmpty();
            assertThat(old.definition().ephemeralOwner()).as("no run owns a session of an earlier schema").isEmpty();
            assertThat(old.definition().setupSecrets()).as("no open of an earlier schema named setup secrets").isEmpty();
            assertThat(old.freshness()).isEmpty();
            assertThat(old.workdir()).contains("/sessions/old");

            store.register(SessionDefinition.builder("old", "owner/repo", "work").setupCommands(List.of("make")).provider("local")
                    .labels(Map.of("team", "infra")).build());
            store.recordFreshness("old", "up to date with origin/work");
            SessionRecord reopened = store.find("old").orElseThrow();
            assertThat(reopened.definition().labels()).containsExactly(Map.entry("team", "infra"));
            assertThat(reopened.definition().baseBranch()).as("an open naming no base keeps the stored one").contains("main");
            assertThat(reopened.freshness()).contains("up to date with origin/work");
        }
    }

    @Test
    void anEnvironmentIsKeptWholeEachRepositoryInItsOwnRowWithItsSetupState() {
        EnvironmentDefinition env = new EnvironmentDefinition(List.of(
                new EnvironmentDefinition.RepositoryDefinition("acme/api", "api", Optional.empty(), List.of("make deps"), List.of("make clean")),
                new EnvironmentDefinition.RepositoryDefinition("acme/ui", "frontend", Optional.of("develop"), List.of("npm ci"), List.of())),
                List.of("./api/scripts/link-ui"), List.of("echo bye"));
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state)) {
            store.register(SessionDefinition.builder("e", "acme/api", "b").provider("local").environment(env).build());
            assertThat(store.find("e").orElseThrow().setupStates()).containsExactly(Map.entry("api", "pending"), Map.entry("frontend", "pending"));
            store.recordSetupStates("e", Map.of("api", "done", "frontend", "failed"));
        }
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state)) {
            SessionRecord found = store.find("e").orElseThrow();
            assertThat(found.definition().environment()).contains(env);
            assertThat(found.definition().setupCommands()).isEmpty();
            assertThat(found.setupStates()).containsExactly(Map.entry("api", "done"), Map.entry("frontend", "failed"));
            assertThat(store.list()).singleElement().satisfies(r -> assertThat(r.definition().environment()).contains(env));

            store.delete("e");
            store.register(SessionDefinition.builder("e", "acme/api", "b").provider("local").build());
            assertThat(store.find("e").orElseThrow().definition().environment()).as("a deleted environment leaves no rows behind").isEmpty();
        }
    }

    @Test
    void labelsAddUpAcrossRegistrationsAndALaterValueWins() {
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state)) {
            store.register(SessionDefinition.builder("l", "o/r", "b").labels(Map.of("team", "infra", "item", "12")).build());
            store.register(SessionDefinition.builder("l", "o/r", "b").build());
            store.register(SessionDefinition.builder("l", "o/r", "b").labels(Map.of("item", "13")).build());

            assertThat(store.find("l").orElseThrow().definition().labels()).containsOnly(Map.entry("team", "infra"), Map.entry("item", "13"));
        }
    }

    @Test
    void keepsDefinitionsAndStartsAcrossReopening() {
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state)) {
            SessionRecord created = store.register(definition("s1"));
            assertThat(created.definition()).isEqualTo(definition("s1"));
            assertThat(created.sandboxId()).isEmpty();
            assertThat(created.workdir()).isEmpty();
            store.recordStart("s1", Optional.of("/sessions/s1"), "/sessions/s1", Instant.ofEpochMilli(1234));
        }
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state)) {
            SessionRecord found = store.find("s1").orElseThrow();
            assertThat(found.definition().setupCommands()).containsExactly("make setup");
            assertThat(found.definition().teardownCommands()).containsExactly("make clean");
            assertThat(found.sandboxId()).contains("/sessions/s1");
            assertThat(found.workdir()).contains("/sessions/s1");
            assertThat(found.materializedAt()).contains(Instant.ofEpochMilli(1234));
            // Re-registering updates the definition but keeps what starts recorded.
            store.register(SessionDefinition.builder("s1", "owner/repo", "feature/y").baseBranch("dev").build());
            SessionRecord updated = store.find("s1").orElseThrow();
            assertThat(updated.definition().branch()).isEqualTo("feature/y");
            assertThat(updated.workdir()).contains("/sessions/s1");
            assertThat(updated.createdAt()).isEqualTo(found.createdAt());
            assertThat(store.list()).extracting(SessionRecord::sessionId).containsExactly("s1");
        }
    }

    @Test
    void generationsSurviveDeletionSoStaleWorkStaysStale() {
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state)) {
            store.register(definition("s1"));
            assertThat(store.generation("s1")).isZero();
            assertThat(store.bumpGeneration("s1")).isEqualTo(1);
            assertThat(store.find("s1").orElseThrow().generation()).isEqualTo(1);
            assertThat(store.delete("s1")).isTrue();
            assertThat(store.find("s1")).isEmpty();
            assertThat(store.delete("s1")).isFalse();
            assertThat(store.generation("s1")).isEqualTo(1);
            assertThat(store.bumpGeneration("s1")).isEqualTo(2);
        }
    }

    @Test
    void remembersFailedSetupCommandsExactlyUntilCleared() {
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state)) {
            store.register(definition("s1"));
            store.recordFailedSetupCommand("s1", "make setup");
            store.recordFailedSetupCommand("s1", "make setup");
            store.recordFailedSetupCommand("s2", "other");
            assertThat(store.failedSetupCommands("s1")).containsExactly("make setup");
            store.clearFailedSetupCommands("s1");
            assertThat(store.failedSetupCommands("s1")).isEmpty();
            assertThat(store.failedSetupCommands("s2")).containsExactly("other");
            store.recordFailedSetupCommand("s1", "x");
            store.delete("s1");
            assertThat(store.failedSetupCommands("s1")).isEmpty();
        }
    }

    @Test
    void aLeaseBelongsToOneOwnerUntilReleasedOrExpired() throws Exception {
        LeaseOwner a = LeaseOwner.forThisProcess();
        LeaseOwner b = LeaseOwner.forThisProcess();
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state)) {
            assertThat(store.tryAcquireLease("s1", a, Duration.ofSeconds(30)).acquired()).isTrue();
            LeaseAttempt again = store.tryAcquireLease("s1", a, Duration.ofSeconds(30));
            assertThat(again.acquired()).as("re-entrant for its owner").isTrue();
            LeaseAttempt refused = store.tryAcquireLease("s1", b, Duration.ofSeconds(30));
            assertThat(refused.acquired()).isFalse();
            assertThat(refused.holder().id()).isEqualTo(a.id());
            assertThat(store.tryAcquireLease("s2", b, Duration.ofSeconds(30)).acquired()).as("other sessions are free").isTrue();
            assertThat(store.renewLease("s1", b.id(), again.fence(), Duration.ofSeconds(30))).isFalse();
            assertThat(store.renewLease("s1", a.id(), again.fence(), Duration.ofSeconds(30))).isTrue();
            store.releaseLease("s1", b.id(), again.fence());
            assertThat(store.tryAcquireLease("s1", b, Duration.ofSeconds(30)).acquired()).as("only the owner releases").isFalse();
            store.releaseLease("s1", a.id(), again.fence());
            assertThat(store.tryAcquireLease("s1", b, Duration.ofSeconds(30)).acquired()).isTrue();

            assertThat(store.tryAcquireLease("s3", a, Duration.ofMillis(1)).acquired()).isTrue();
            Thread.sleep(20);
            assertThat(store.tryAcquireLease("s3", b, Duration.ofSeconds(30)).acquired()).as("an expired lease is free").isTrue();
        }
    }

    @Test
    void aLeaseOfAProvablyDeadProcessIsTakenAtOnce() throws Exception {
        Process gone = new ProcessBuilder("true").start();
        Optional<Instant> started = gone.info().startInstant();
        assertThat(gone.waitFor(10, TimeUnit.SECONDS)).isTrue();
        LeaseOwner dead = new LeaseOwner("dead-owner", io.sandboxfactory.api.support.HostProcess.current().host(), gone.pid(), started, "");
        LeaseOwner elsewhere = new LeaseOwner("remote-owner", "some-other-host.invalid", gone.pid(), started, "");
        LeaseOwner me = LeaseOwner.forThisProcess();
        assertThat(dead.isProvablyGone()).isTrue();
        assertThat(elsewhere.isProvablyGone()).isFalse();
        assertThat(me.isProvablyGone()).isFalse();
        try (SqliteSessionStore store = SqliteSessionStore.openIn(state)) {
            assertThat(store.tryAcquireLease("s1", dead, Duration.ofHours(1)).acquired()).isTrue();
            assertThat(store.tryAcquireLease("s1", me, Duration.ofSeconds(30)).acquired()).isTrue();
            assertThat(store.tryAcquireLease("s2", elsewhere, Duration.ofHours(1)).acquired()).isTrue();
            assertThat(store.tryAcquireLease("s2", me, Duration.ofSeconds(30)).acquired())
                    .as("an owner on another host is never provably gone").isFalse();
        }
    }

    @Test
    void concurrentWritersFromTwoStoresOnOneFileLoseNoUpdate() throws Exception {
        int threads = 8;
        int perThread = 25;
        try (SqliteSessionStore first = SqliteSessionStore.openIn(state);
             SqliteSessionStore second = SqliteSessionStore.openIn(state)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                SqliteSessionStore store = t % 2 == 0 ? first : second;
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        store.bumpGeneration("shared");
                    }
                }));
            }
            for (Future<?> f : futures) {
                f.get(120, TimeUnit.SECONDS);
            }
            pool.shutdown();
            assertThat(first.generation("shared")).isEqualTo((long) threads * perThread);
        }
        assertThat(Files.exists(state.resolve("sessions.db"))).isTrue();
    }
}
