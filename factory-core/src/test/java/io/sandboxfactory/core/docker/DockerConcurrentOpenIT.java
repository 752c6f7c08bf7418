package io.sandboxfactory.core.docker;

import io.sandboxfactory.core.testing.RequiresDocker;
import com.github.dockerjava.api.model.Container;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxStatus;
import io.sandboxfactory.api.StartOutcome;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many openers of one session at once on a real Docker engine — threads of two factories on one
 * state directory, and separate JVMs each with its own factory — end with exactly one container
 * (counted on the engine by label) and one run of the setup.
 */
@ExtendWith(RequiresDocker.class)
class DockerConcurrentOpenIT {

    /** The pause keeps the first opener inside its start while the others arrive. */
    private static final String SLOW_SETUP = DockerSessionRig.SETUP_COMMAND + "; sleep 0.5";

    @TempDir
    Path tmp;
    DockerSessionRig rig;

    @BeforeEach
    void rig() throws IOException {
        rig = new DockerSessionRig(tmp);
    }

    @AfterEach
    void cleanUp() {
        rig.close();
    }

    @Test
    void threadsOfTwoFactoriesOnOneStateDirectoryMakeOneContainerAndSetUpOnce() throws Exception {
        String id = rig.sessionId("race");
        SessionSpec spec = rig.spec(id).setupCommands(SLOW_SETUP).build();
        SandboxFactory a = rig.factory();
        SandboxFactory b = rig.factory();
        int threads = 6;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        CountDownLatch go = new CountDownLatch(1);
        List<CompletableFuture<SessionHandle>> opens = new ArrayList<>();
        try {
            for (int i = 0; i < threads; i++) {
                SandboxFactory factory = i % 2 == 0 ? a : b;
                opens.add(CompletableFuture.supplyAsync(() -> {
                    await(go);
                    return factory.openSession(spec);
                }, pool));
            }
            go.countDown();
            Set<MastraSandbox<?>> instances = Collections.newSetFromMap(new IdentityHashMap<>());
            for (CompletableFuture<SessionHandle> open : opens) {
                instances.add(open.get(180, TimeUnit.SECONDS).sandbox());
            }

            List<Container> containers = rig.containersOfSession(id);
            assertThat(containers).hasSize(1);
            assertThat(instances).as("one instance per factory").hasSize(2);
            for (MastraSandbox<?> sandbox : instances) {
                assertThat(sandbox.status()).isEqualTo(SandboxStatus.RUNNING);
                assertThat(sandbox.sandboxId()).contains(containers.get(0).getId());
            }
            assertThat(instances).filteredOn(s -> s.lastStartOutcome().orElseThrow() == StartOutcome.CREATED).hasSize(1);
            assertThat(DockerSessionRig.setupRuns(instances.iterator().next())).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void separateJvmsOpeningOneSessionMakeOneContainerAndSetUpOnce() throws Exception {
        String id = rig.sessionId("jvms");
        Path config = rig.writeConfigFile(tmp.resolve("factory.yaml"));
        String java = ProcessHandle.current().info().command().orElse("java");
        String classpath = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        List<Process> processes = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            processes.add(new ProcessBuilder(java, "-cp", classpath, OpenDockerSessionProcess.class.getName(), config.toString(),
                    rig.state().toString(), id, rig.remote().toString(), SLOW_SETUP)
                    .redirectError(tmp.resolve("child-" + i + ".err").toFile()).start());
        }
        List<String> outcomes = new ArrayList<>();
        Set<String> containerIds = new HashSet<>();
        for (int i = 0; i < processes.size(); i++) {
            Process process = processes.get(i);
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.waitFor(180, TimeUnit.SECONDS)).isTrue();
            assertThat(process.exitValue()).as("%s%n%s", out, Files.readString(tmp.resolve("child-" + i + ".err"))).isZero();
            out.lines().filter(l -> l.startsWith("outcome=")).forEach(outcomes::add);
            out.lines().filter(l -> l.startsWith("container=")).map(l -> l.substring("container=".length())).forEach(containerIds::add);
        }

        assertThat(outcomes).hasSize(3).containsOnlyOnce("outcome=CREATED");
        assertThat(outcomes).filteredOn("outcome=CONNECTED"::equals).hasSize(2);
        List<Container> containers = rig.containersOfSession(id);
        assertThat(containers).hasSize(1);
        assertThat(containerIds).containsExactly(containers.get(0).getId());
        // This JVM's own factory on the same state reconnects: the setup ran exactly once in the container.
        try (SandboxFactory factory = rig.factory()) {
            MastraSandbox<?> sandbox = factory.openSession(rig.spec(id).setupCommands(SLOW_SETUP).build()).sandbox();
            assertThat(sandbox.lastStartOutcome()).contains(StartOutcome.CONNECTED);
            assertThat(DockerSessionRig.setupRuns(sandbox)).isEqualTo(1);
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
