package io.sandboxfactory.core.internal.git;

import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.testing.ConcurrentCachedClones;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.GitHttpServer;
import io.sandboxfactory.core.testing.RecordingListener;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/** The host git object cache with the local provider, real git on a local bare repository (design §5.14). */
class ObjectCacheTest {

    @TempDir
    Path tmp;
    Path remote;
    Path state;
    Path config;
    RecordingListener listener = new RecordingListener();

    @BeforeEach
    void fixtures() throws IOException {
        remote = Git.bareRepository(tmp.resolve("remote/project.git"));
        state = tmp.resolve("state");
        config = tmp.resolve("factory.yaml");
        // The token goes to the sandboxes (not through the Git gateway), so the clones reach the server and are counted there.
        Files.writeString(config, "cache:\n  enabled: true\nrepository:\n  exposeToken: true\n");
    }

    private SandboxFactory factory() {
        return SandboxFactory.builder().provider("local").environment(Map.of("FACTORY_PROVIDERS_LOCAL_NETWORK", "host")).config(config).stateDirectory(state)
                .sessionListener(listener).build();
    }

    private SessionSpec spec(String id) {
        return SessionSpec.builder(id).repository(remote.toString()).branch("work").build();
    }

    private List<Path> mirrors() throws IOException {
        try (Stream<Path> children = Files.list(state.resolve("git-cache"))) {
            return children.filter(p -> p.getFileName().toString().endsWith(".git")).toList();
        }
    }

    @Test
    void aCloneBorrowsFromTheMirrorAndTheCheckoutDoesNotDependOnIt() throws Exception {
        try (SandboxFactory factory = factory()) {
            SessionHandle session = factory.openSession(spec("s1"));
            Path checkout = Path.of(session.checkout().orElseThrow());
            assertThat(mirrors()).hasSize(1);
            Path mirror = mirrors().get(0);
            assertThat(Git.run(mirror, "rev-parse", "main")).isEqualTo(Git.revParse(remote, "main"));
            assertThat(listener.commands()).anyMatch(c -> c.contains(" clone ") && c.contains("--reference-if-able " + mirror)
                    && c.contains("--dissociate"));
            assertThat(checkout.resolve(".git/objects/info/alternates")).doesNotExist();
            assertThat(Git.run(checkout, "symbolic-ref", "--short", "HEAD")).isEqualTo("work");

            GitReposDeleter.delete(mirror);
            assertThat(Git.run(checkout, "log", "--oneline", "-1")).as("the checkout works without the mirror").contains("initial");
        }
    }

    @Test
    void concurrentOpensInTwoFactoriesCostTheMirrorOneFetch() throws Exception {
        String token = "cache-token";
        try (GitHttpServer server = new GitHttpServer(remote.getParent(), token)) {
            String url = server.url(remote.getFileName().toString());
            Function<String, SessionSpec> spec = id -> SessionSpec.builder(id).repository(url).branch("work").build();
            int perOpen;
            Path exposed = Files.writeString(tmp.resolve("exposed.yaml"), "repository:\n  exposeToken: true\n");
            try (SandboxFactory plain = SandboxFactory.builder().provider("local").environment(Map.of("FACTORY_PROVIDERS_LOCAL_NETWORK", "host"))
                    .config(exposed).stateDirectory(tmp.resolve("plain")).repositoryToken(() -> token).build()) {
                int before = server.uploadPackAdvertisements();
                plain.openSession(spec.apply("control"));
                perOpen = server.uploadPackAdvertisements() - before;
            }
            assertThat(perOpen).as("fetches of one open without the cache").isPositive();

            ConcurrentCachedClones clones = new ConcurrentCachedClones();
            try (SandboxFactory one = cachedFactory(clones, token); SandboxFactory two = cachedFactory(clones, token)) {
                List<String> ids = List.of("c0", "c1", "c2", "c3");
                int before = server.uploadPackAdvertisements();
                List<SessionHandle> handles = clones.open(server, List.of(one, two), ids, spec);
                assertThat(server.uploadPackAdvertisements() - before).as("each open's own clone, and one mirror clone for all")
                        .isEqualTo(ids.size() * perOpen + 1);
                for (SessionHandle handle : handles) {
                    Path checkout = Path.of(handle.checkout().orElseThrow());
                    assertThat(Git.revParse(checkout, "HEAD")).isEqualTo(Git.revParse(remote, "main"));
                    assertThat(checkout.resolve(".git/objects/info/alternates")).doesNotExist();
                    assertThat(Files.readString(checkout.resolve(".git/config"))).doesNotContain(token);
                }
            }
            assertThat(mirrors()).hasSize(1);
            assertThat(Files.readString(mirrors().get(0).resolve("config"))).doesNotContain(token);
            try (Stream<Path> children = Files.list(state.resolve("git-cache"))) {
                assertThat(children.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".partial"));
            }
        }
    }

    private SandboxFactory cachedFactory(ConcurrentCachedClones listener, String token) {
        return SandboxFactory.builder().provider("local").environment(Map.of("FACTORY_PROVIDERS_LOCAL_NETWORK", "host")).config(config).stateDirectory(state)
                .sessionListener(listener).repositoryToken(() -> token).build();
    }

    @Test
    void sweepRemovesMirrorsUnusedForMaxIdle() throws Exception {
        try (SandboxFactory factory = factory()) {
            factory.openSession(spec("s1"));
            Path mirror = mirrors().get(0);
            factory.fleet().sweep();
            assertThat(mirror).as("used just now").exists();
            Files.setLastModifiedTime(mirror.resolve("sandbox-factory-fetched"), FileTime.from(Instant.now().minus(Duration.ofDays(31))));
            factory.fleet().sweep();
            assertThat(mirror).doesNotExist();
        }
    }

    /** Deletes a directory tree. */
    private static final class GitReposDeleter {
        static void delete(Path dir) throws IOException {
            try (Stream<Path> files = Files.walk(dir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }
}
