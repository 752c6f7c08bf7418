package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxExecTransportException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What a command reports when the connection to the engine fails, or its caller is interrupted. */
@ExtendWith(RequiresDockerEngine.class)
class DockerTransportIT {

    @TempDir
    Path dir;

    private DockerFixture fixture;

    @BeforeEach
    void setUp() {
        fixture = new DockerFixture();
    }

    @AfterEach
    void cleanUp() {
        fixture.close();
    }

    @Test
    void aTransportFailureBeforeTheCommandExistsSaysItNeverRan() throws Exception {
        DockerSandbox sandbox;
        try (SocketProxy proxy = new SocketProxy(dir.resolve("docker.sock"), Path.of("/var/run/docker.sock"))) {
            sandbox = sandboxThrough(proxy);
            sandbox.start();
        }

        assertThatThrownBy(() -> sandbox.executeCommand("touch /tmp/ran"))
                .isInstanceOf(SandboxExecTransportException.class)
                .hasMessageContaining("Could not create the command")
                .satisfies(e -> assertThat(((SandboxExecTransportException) e).opened()).isFalse());
        assertThat(fixture.sandbox(fixture.factory(), sandbox.id()).executeCommand("test -e /tmp/ran").exitCode()).isEqualTo(1);
    }

    @Test
    void aTransportFailureWhileTheCommandRunsSaysItMayHaveRun() throws Exception {
        SocketProxy proxy = new SocketProxy(dir.resolve("docker.sock"), Path.of("/var/run/docker.sock"));
        DockerSandbox sandbox = sandboxThrough(proxy);
        sandbox.start();
        CountDownLatch running = new CountDownLatch(1);
        CompletableFuture<Object> outcome = CompletableFuture.supplyAsync(() -> sandbox.executeCommand(
                "echo started; sleep 30", List.of(), CommandOptions.builder().onStdout(chunk -> running.countDown()).build()));
        assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();

        proxy.close();

        assertThat(outcome).failsWithin(Duration.ofSeconds(30))
                .withThrowableOfType(java.util.concurrent.ExecutionException.class)
                .havingCause()
                .isInstanceOf(SandboxExecTransportException.class)
                .satisfies(e -> assertThat(((SandboxExecTransportException) e).opened()).isTrue());
    }

    @Test
    void interruptingTheCallerKillsTheCommandInsideTheContainer() throws Exception {
        DockerSandbox sandbox = fixture.sandbox(fixture.factory(), fixture.sessionId("interrupt"));
        sandbox.start();
        CountDownLatch running = new CountDownLatch(1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                sandbox.executeCommand("echo started; sleep 4715", List.of(),
                        CommandOptions.builder().onStdout(chunk -> running.countDown()).build());
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        caller.start();
        assertThat(running.await(30, TimeUnit.SECONDS)).isTrue();

        caller.interrupt();
        caller.join(TimeUnit.SECONDS.toMillis(30));

        assertThat(caller.isAlive()).isFalse();
        assertThat(failure.get()).isInstanceOf(SandboxException.class)
                .satisfies(e -> assertThat(((SandboxException) e).code()).isEqualTo("INTERRUPTED"));
        assertThat(sandbox.executeCommand("ps -o args").stdout()).doesNotContain("sleep 4715");
    }

    private DockerSandbox sandboxThrough(SocketProxy proxy) {
        DockerFactorySandbox factory = fixture.factory(fixture.owner(), b -> b.host(proxy.uri()));
        return factory.create(FactorySandboxContext.of(fixture.sessionId("transport")));
    }
}
