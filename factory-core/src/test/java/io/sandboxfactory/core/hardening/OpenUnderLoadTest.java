package io.sandboxfactory.core.hardening;

import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.RecordingListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Concurrency under load (Hardening, point 2), with real processes, the real local provider, real
 * git and the real SQLite store: many openers of one session across JVMs make one sandbox and run
 * its setup once; many sessions opened at once all come up complete.
 */
class OpenUnderLoadTest {

    private static final Pattern RESULT = Pattern.compile("RESULT opens=(\\d+) failed=(\\d+) instances=(\\d+) created=(\\d+)");

    @TempDir
    Path tmp;
    HardeningRig rig;
    Path repo;
    final List<ChildProcess> children = new ArrayList<>();

    @BeforeEach
    void rig() throws Exception {
        rig = new HardeningRig(tmp);
        repo = rig.repository("site", false);
    }

    @AfterEach
    void cleanup() throws Exception {
        rig.release();
        for (ChildProcess child : children) {
            child.close();
        }
    }

    @Test
    void twoHundredOpensOfOneSessionFromFourProcessesMakeOneSandboxAndRunTheSetupOnce() throws Exception {
        Path go = tmp.resolve("go");
        String setup = "echo ran >> '" + rig.setupLog + "'; sleep 0.3";
        for (int i = 0; i < 4; i++) {
            ChildProcess child = ChildProcess.start(tmp.resolve("logs"), "opener-" + i, OpenSessionChild.class, rig.childArgs(
                    "repo=" + repo, "session=shared", "setup=" + setup, "threads=50", "await=" + go));
            children.add(child);
        }
        for (ChildProcess child : children) {
            child.awaitLine("READY"::equals);
        }
        Files.writeString(go, "");

        int opens = 0;
        int created = 0;
        for (ChildProcess child : children) {
            List<String> out = child.awaitSuccess();
            String result = out.stream().filter(l -> l.startsWith("RESULT ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no result; " + child.describe()));
            Matcher m = RESULT.matcher(result);
            assertThat(m.matches()).as(result).isTrue();
            assertThat(m.group(2)).as("failed opens in %s: %s", child.describe(), result).isEqualTo("0");
            assertThat(m.group(3)).as("one sandbox instance per process").isEqualTo("1");
            opens += Integer.parseInt(m.group(1));
            created += Integer.parseInt(m.group(4));
        }
        assertThat(opens).isEqualTo(200);
        assertThat(created).as("exactly one CREATED outcome across all processes").isEqualTo(1);
        assertThat(rig.setupLog()).containsExactly("ran");
        assertThat(rig.sessionDirectories()).containsExactly("shared");
    }

    @Test
    void fiftyDifferentSessionsOpenedAtOnceAllComeUpComplete() throws Exception {
        int sessions = 50;
        String setup = "pwd >> '" + rig.setupLog + "'";
        ExecutorService pool = Executors.newFixedThreadPool(sessions);
        try (SandboxFactory factory = rig.factory(new RecordingListener())) {
            CountDownLatch go = new CountDownLatch(1);
            List<CompletableFuture<SessionHandle>> opens = IntStream.range(0, sessions).mapToObj(i -> CompletableFuture.supplyAsync(() -> {
                await(go);
                return factory.openSession(SessionSpec.builder(String.format("s%02d", i)).repository(repo.toString())
                        .branch("work-" + i).setupCommands(setup).build());
            }, pool)).toList();
            go.countDown();
            for (CompletableFuture<SessionHandle> open : opens) {
                open.get(5, TimeUnit.MINUTES);
            }
        } finally {
            pool.shutdownNow();
        }

        List<String> expected = IntStream.range(0, sessions).mapToObj(i -> String.format("s%02d", i)).toList();
        assertThat(rig.sessionDirectories()).isEqualTo(expected);
        for (int i = 0; i < sessions; i++) {
            Path dir = rig.sessionDirectory(expected.get(i));
            assertThat(Git.run(dir.resolve("site"), "symbolic-ref", "--short", "HEAD")).isEqualTo("work-" + i);
            assertThat(dir.resolve(".mastra-sandbox/setup")).isRegularFile();
        }
        assertThat(rig.setupLog()).as("each session's setup ran once, in its own checkout")
                .containsExactlyInAnyOrderElementsOf(expected.stream().map(id -> rig.sessionDirectory(id).resolve("site").toString()).toList());
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
