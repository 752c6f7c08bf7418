package io.sandboxfactory.core.git;

import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.testing.Git;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
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
        Files.writeString(config, "cache:\n  enabled: true\n");
    }

    private SandboxFactory factory() {
        return SandboxFactory.builder().provider("local").environment(Map.of()).config(config).stateDirectory(state)
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
    void concurrentOpensShareOneMirror() throws Exception {
        try (SandboxFactory factory = factory()) {
            int opens = 4;
            CountDownLatch go = new CountDownLatch(1);
            ExecutorService pool = Executors.newFixedThreadPool(opens);
            try {
                List<Future<SessionHandle>> results = new ArrayList<>();
                for (int i = 0; i < opens; i++) {
                    String id = "c" + i;
                    results.add(pool.submit(() -> {
                        go.await();
                        return factory.openSession(spec(id));
                    }));
                }
                go.countDown();
                for (Future<SessionHandle> result : results) {
                    Path checkout = Path.of(result.get().checkout().orElseThrow());
                    assertThat(Git.revParse(checkout, "HEAD")).isEqualTo(Git.revParse(remote, "main"));
                }
            } finally {
                pool.shutdownNow();
            }
            assertThat(mirrors()).hasSize(1);
            try (Stream<Path> children = Files.list(state.resolve("git-cache"))) {
                assertThat(children.map(p -> p.getFileName().toString())).noneMatch(n -> n.endsWith(".partial"));
            }
        }
    }

    @Test
    void sweepRemovesMirrorsUnusedForMaxIdle() throws Exception {
        try (SandboxFactory factory = factory()) {
            factory.openSession(spec("s1"));
            Path mirror = mirrors().get(0);
            factory.sweep();
            assertThat(mirror).as("used just now").exists();
            Files.setLastModifiedTime(mirror.resolve("sandbox-factory-fetched"), FileTime.from(Instant.now().minus(Duration.ofDays(31))));
            factory.sweep();
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
