package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.files.FileTransferSandbox;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.files.TransferEntry;
import io.sandboxfactory.api.SandboxException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * Escape attempts against a hardened container on a real engine, under the runtime the run uses
 * (the engine's default, or {@code runsc} in the build's gVisor run): each test tries what the
 * hardening forbids and fails if it works.
 */
@ExtendWith(RequiresDockerEngine.class)
class DockerHardeningIT {

    private DockerFixture fixture;

    @BeforeEach
    void setUp() {
        fixture = new DockerFixture();
    }

    @AfterEach
    void cleanUp() {
        fixture.close();
    }

    private DockerSandbox started(String hint, UnaryOperator<DockerProviderConfig.Builder> customize) {
        DockerSandbox sandbox = fixture.factory(fixture.owner(), customize).create(FactorySandboxContext.of(fixture.sessionId(hint)));
        sandbox.start();
        return sandbox;
    }

    @Test
    void commandsRunAsTheNonRootUserWhoOwnsTheWorkspaceAndCopiedFiles() {
        DockerSandbox sandbox = started("user", b -> b);
        assertThat(sandbox.executeCommand("id -u; id -g").stdout()).isEqualTo("1000\n1000\n");
        assertThat(sandbox.executeCommand("echo made >/workspace/made && stat -c '%u:%g' /workspace /workspace/made").stdout())
                .isEqualTo("1000:1000\n1000:1000\n");
        sandbox.copyIn("/workspace", "/workspace", source("dir/copied.txt", "in"));
        assertThat(sandbox.executeCommand("stat -c '%u:%g' dir dir/copied.txt && echo more >>dir/copied.txt && cat dir/copied.txt")
                .stdout()).isEqualTo("1000:1000\n1000:1000\ninmore\n");
    }

    @Test
    void aSessionWorkingDirectoryMissingFromTheImageIsTheUsersToo() {
        DockerSandbox sandbox = fixture.factory(fixture.owner(), b -> b.user("4321:1234"))
                .create(FactorySandboxContext.builder(fixture.sessionId("own-dir")).workingDirectory("/srv/deep/work").build());
        sandbox.start();
        assertThat(sandbox.executeCommand("id -u; stat -c '%u:%g' /srv/deep/work; touch here && pwd").stdout())
                .isEqualTo("4321\n4321:1234\n/srv/deep/work\n");
    }

    @Test
    void actsThatNeedACapabilityFailEvenForRoot() {
        for (String user : List.of("1000:1000", "0")) {
            DockerSandbox sandbox = started("caps-" + user.charAt(0), b -> b.user(user));
            assertThat(sandbox.executeCommand("chown 1000 /etc/passwd").exitCode()).as("chown of a root file as %s", user).isNotZero();
            // A device node is an escape only if it opens a host device: /dev/mem (1,1).
            assertThat(sandbox.executeCommand("mknod /tmp/mem c 1 1 && head -c 1 /tmp/mem >/dev/null").exitCode())
                    .as("mknod and read /dev/mem as %s", user).isNotZero();
            // ping needs a raw socket (CAP_NET_RAW).
            assertThat(sandbox.executeCommand("ping -c 1 -W 1 127.0.0.1").exitCode()).as("raw socket as %s", user).isNotZero();
            assertThat(sandbox.executeCommand("cat /proc/self/status | grep CapEff").stdout())
                    .as("effective capabilities of %s", user).contains("0000000000000000");
        }
    }

    @Test
    void aCapabilityAddedBackIsThere() {
        DockerSandbox sandbox = started("cap-add", b -> b.user("0").capAdd(List.of("chown")));
        assertThat(sandbox.executeCommand("touch /tmp/f && chown 5:5 /tmp/f && stat -c %u /tmp/f").stdout()).isEqualTo("5\n");
        // CAP_CHOWN is bit 0: that one and no other is in force.
        assertThat(sandbox.executeCommand("grep CapEff /proc/self/status").stdout()).contains("0000000000000001");
    }

    @Test
    void noNewPrivilegesHolds() {
        DockerSandbox sandbox = started("nnp", b -> b);
        assertThat(fixture.engine().inspectContainerCmd(sandbox.containerName()).exec().getHostConfig().getSecurityOpts())
                .contains("no-new-privileges:true");
        if (!"runsc".equals(DockerFixture.runtime())) {
            // gVisor's /proc does not show the flag; the kernel's does.
            assertThat(sandbox.executeCommand("grep NoNewPrivs /proc/self/status").stdout()).contains("1");
        }
    }

    /**
     * A bounded fork bomb: up to 600 sleepers (each ends by itself), counting how many could start.
     * Under runc the pids limit makes forks fail before it and the container goes on. Under gVisor the
     * limit holds the sandbox's own host threads: the bomb ends the whole sandbox (the command fails
     * with it), and at a limit this low even the restarted sandbox can end again under its own
     * threads, so the test cannot run there (docs/operations/security-model.md, "What docker isolates").
     */
    @Test
    void aForkBombIsBoundedByThePidsLimit() {
        Assumptions.assumeFalse("runsc".equals(DockerFixture.runtime()),
                "under runsc the pids limit counts gVisor's own threads: a fork bomb ends the sandbox, and a restart can end again");
        long limit = 128;
        DockerSandbox sandbox = started("forks", b -> b.pidsLimit(limit));
        String bomb = "( i=0; while [ $i -lt 600 ]; do sleep 30 & echo $! >>/tmp/pids; i=$((i+1)); done ) 2>/dev/null;"
                + " n=0; while read p; do n=$((n+1)); kill -9 $p 2>/dev/null; done </tmp/pids; rm -f /tmp/pids; echo $n";
        CommandResult result;
        try {
            result = sandbox.executeCommand(bomb);
        } catch (SandboxException ended) {
            result = null;
        }
        if (result != null && result.exitCode() == 0) {
            assertThat(Integer.parseInt(result.stdout().trim())).as("sleepers started").isPositive().isLessThan((int) limit);
        } else {
            assertThat(fixture.engine().inspectContainerCmd(sandbox.containerName()).exec().getState().getRunning())
                    .as("a bomb that failed the command ended the container").isFalse();
            sandbox.start();
        }
        assertThat(sandbox.executeCommand("echo alive").stdout()).isEqualTo("alive\n");
    }

    @Test
    void aLoopbackServerOfTheHostIsNotReachableWithoutNetwork() throws IOException {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            AtomicInteger accepted = new AtomicInteger();
            Thread acceptor = new Thread(() -> {
                while (!server.isClosed()) {
                    try (Socket ignored = server.accept()) {
                        accepted.incrementAndGet();
                    } catch (IOException closed) {
                        return;
                    }
                }
            });
            acceptor.setDaemon(true);
            acceptor.start();
            // The server answers on the host: the test itself can reach it.
            try (Socket probe = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort())) {
                assertThat(probe.isConnected()).isTrue();
            }
            DockerSandbox sandbox = started("net", b -> b);
            CommandResult attempt = sandbox.executeCommand("echo hi | nc -w 2 127.0.0.1 " + server.getLocalPort());
            assertThat(attempt.exitCode()).as("nc to the host's loopback server").isNotZero();
            assertThat(sandbox.executeCommand("ls /sys/class/net 2>/dev/null || ip -o link | cut -d: -f2").stdout().trim())
                    .isEqualTo("lo");
        }
    }

    @Test
    void aHostFileOutsideTheMountsIsNotReadable(@TempDir Path dir) throws IOException {
        String secret = "host-secret-" + fixture.sessionId("s");
        Path file = dir.resolve("secret.txt");
        Files.writeString(file, secret);
        DockerSandbox sandbox = started("host-file", b -> b);
        CommandResult read = sandbox.executeCommand("cat " + file + "; cat /proc/1/root" + file + "; grep -rs " + secret + " /proc/1/root"
                + dir + " /tmp 2>/dev/null; true");
        assertThat(read.stdout()).doesNotContain(secret);
    }

    @Test
    void aReadOnlyRootKeepsTheWorkspaceAndTmpWritable() {
        DockerSandbox sandbox = started("read-only", b -> b.readOnlyRootFilesystem(true));
        assertThat(sandbox.executeCommand("echo x >/etc/owned").exitCode()).as("writing /etc").isNotZero();
        assertThat(sandbox.executeCommand("touch /usr/bin/planted").exitCode()).as("writing /usr/bin").isNotZero();
        assertThat(sandbox.executeCommand("echo w >/workspace/w && echo t >/tmp/t && cat /workspace/w /tmp/t && id -u").stdout())
                .isEqualTo("w\nt\n1000\n");
        sandbox.copyIn("/workspace", "/workspace", source("copied", "c"));
        StringBuilder seen = new StringBuilder();
        sandbox.copyOut("/workspace", "/workspace/copied", (entry, content) -> seen.append(new String(content.readAllBytes(),
                StandardCharsets.UTF_8)));
        assertThat(seen).hasToString("c");
        // The workspace survives a stop, as files do in every docker sandbox.
        sandbox.stop();
        sandbox.start();
        assertThat(sandbox.executeCommand("cat /workspace/w").stdout()).isEqualTo("w\n");
    }

    @Test
    void aContainerReportsTheRuntimeItRunsUnder() {
        DockerFactorySandbox factory = fixture.factory(fixture.owner(), b -> b);
        DockerSandbox sandbox = factory.create(FactorySandboxContext.of(fixture.sessionId("runtime")));
        sandbox.start();
        String runtime = fixture.engine().inspectContainerCmd(sandbox.containerName()).exec().getHostConfig().getRuntime();
        assertThat(factory.isolation()).isEqualTo("docker/" + runtime);
        assertThat(runtime).isEqualTo(DockerFixture.runtime() == null ? "runc" : DockerFixture.runtime());
    }

    @Test
    void anUnknownRuntimeFailsBeforeAnythingIsCreated() {
        int volumesBefore = fixture.engine().listVolumesCmd().exec().getVolumes().size();
        String session = fixture.sessionId("no-runtime");
        DockerSandbox sandbox = fixture.factory(fixture.owner(), b -> b.runtime("no-such-runtime").readOnlyRootFilesystem(true))
                .create(FactorySandboxContext.of(session));
        Throwable failure = catchThrowable(sandbox::start);
        Throwable cause = failure;
        while (cause != null && !(cause instanceof InvalidInputException)) {
            cause = cause.getCause();
        }
        assertThat(cause).as("an invalid input in %s", failure).isInstanceOf(InvalidInputException.class)
                .hasMessageContaining("runtime 'no-such-runtime' is invalid")
                .hasMessageContaining("runc");
        assertThat(((InvalidInputException) cause).code()).isEqualTo("INVALID_CONFIG");
        assertThat(fixture.containersOfSession(session)).isEmpty();
        assertThat(fixture.engine().listVolumesCmd().exec().getVolumes()).hasSize(volumesBefore);
    }

    /** One file at {@code path} (its directories first) holding {@code text}. */
    private static FileTransferSandbox.Source source(String path, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        List<TransferEntry> entries = new ArrayList<>();
        for (int slash = path.indexOf('/'); slash > 0; slash = path.indexOf('/', slash + 1)) {
            entries.add(TransferEntry.directory(path.substring(0, slash), 0755));
        }
        entries.add(TransferEntry.file(path, bytes.length, 0644));
        return new FileTransferSandbox.Source() {
            @Override
            public List<TransferEntry> entries() {
                return entries;
            }

            @Override
            public InputStream open(TransferEntry file) {
                return new ByteArrayInputStream(bytes);
            }
        };
    }
}
