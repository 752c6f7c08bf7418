package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.testing.TestProviderContext;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static io.sandboxfactory.provider.local.TestBed.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Attacks on the boundary of an isolated session, against the real bubblewrap: each command tries
 * an escape, and the test fails if it works. The same attempts succeed without the boundary (or
 * with {@code network: host} for the network), so each test can fail.
 */
class LocalIsolationTest {

    @TempDir
    Path temp;

    private TestBed bed;

    @BeforeEach
    void requireBubblewrap() {
        assumeTrue(Bubblewrap.works(Bubblewrap.DEFAULT_PROGRAM) || "true".equals(System.getenv("CI")),
                "bubblewrap does not work here (apt-get install bubblewrap)");
        bed = new TestBed(temp, config(LocalProviderConfig.NAMESPACES, null));
        assertThat(bed.factory().isolation()).isEqualTo("namespaces");
    }

    @AfterEach
    void close() {
        if (bed != null) {
            bed.close();
        }
    }

    private LocalProviderConfig config(String isolation, String network) {
        return new LocalProviderConfig(temp.resolve("sessions").toString(), null, null, null, isolation, network, null);
    }

    @Test
    void aCommandNeitherReadsNorWritesAHostFileBesideTheSessions() throws IOException {
        Path secret = Files.writeString(temp.resolve("secret.txt"), "host secret\n");
        Path planted = temp.resolve("planted.txt");
        LocalSandbox sandbox = bed.sandbox("attacker");

        CommandResult read = run(sandbox, "cat " + secret);
        CommandResult write = run(sandbox, "echo owned > " + planted);

        assertThat(read.exitCode()).isNotZero();
        assertThat(read.stdout()).doesNotContain("host secret");
        // The write may succeed inside (the path's parents exist there, in the session's own /tmp); the host's file must not.
        assertThat(write.stderr()).doesNotContain("Read-only");
        assertThat(planted).doesNotExist();
        assertThat(secret).hasContent("host secret");
        // The same commands work without the boundary: the attack is real.
        try (TestBed open = new TestBed(temp.resolve("open"), new LocalProviderConfig(temp.resolve("open/sessions").toString(),
                null, null, null, LocalProviderConfig.NONE, null, null))) {
            assertThat(run(open.sandbox("plain"), "cat " + secret).stdout()).isEqualTo("host secret\n");
            assertThat(open.factory().capabilities()).doesNotContain(SandboxCapability.NETWORK_ISOLATION);
        }
    }

    @Test
    void aSessionsFifosAreInSharedMemoryUnseenByOtherSessionsItsErrorLogInItsPrivateDirectoryAndDestroyRemovesBoth() throws IOException {
        assumeTrue(ForkServer.fifoParent(ForkServer.SHARED_MEMORY).isPresent(), "a writable /dev/shm");
        LocalSandbox sandbox = bed.sandbox("fifos");
        assertThat(run(sandbox, "echo out").stdout()).isEqualTo("out\n");
        Path privateDirectory = SessionPrivate.of(sandbox.directory()).base();
        String log;
        try (var files = Files.list(privateDirectory)) {
            log = files.map(p -> p.getFileName().toString()).filter(name -> name.endsWith(".log")).findFirst().orElseThrow();
        }
        Path fifos = ForkServer.SHARED_MEMORY.resolve(log.substring(0, log.length() - ".log".length()));
        assertThat(fifos).isDirectory();
        assertThat(run(sandbox, "test -d " + fifos).exitCode()).as("its own server's, bound into its boundary").isZero();
        assertThat(run(bed.sandbox("other"), "test -e " + fifos).exitCode()).as("not in another session's boundary").isNotZero();

        sandbox.destroy();

        assertThat(fifos).doesNotExist();
        assertThat(privateDirectory).doesNotExist();
    }

    @Test
    void etcPasswdNamesOnlyTheRunningUserAndSystemDirectoriesAreReadOnly() throws IOException {
        LocalSandbox sandbox = bed.sandbox("users");
        String user = System.getProperty("user.name");

        CommandResult passwd = run(sandbox, "cat /etc/passwd");
        CommandResult whoami = run(sandbox, "id -un");
        CommandResult writeUsr = run(sandbox, "touch /usr/bin/planted");
        CommandResult capabilities = run(sandbox, "grep CapEff /proc/self/status");

        assertThat(passwd.stdout().lines().toList()).singleElement().asString().startsWith(user + ":x:");
        assertThat(Files.readString(Path.of("/etc/passwd")).lines().count()).as("the host has more users").isGreaterThan(1);
        assertThat(whoami.stdout()).isEqualTo(user + "\n");
        assertThat(writeUsr.exitCode()).isNotZero();
        assertThat(Path.of("/usr/bin/planted")).doesNotExist();
        assertThat(capabilities.stdout()).isEqualTo("CapEff:\t0000000000000000\n");
    }

    @Test
    void anotherSessionTheStateDirectoryHomesAndTheDockerSocketAreNotThere() throws IOException {
        LocalSandbox victim = bed.sandbox("victim");
        run(victim, "echo private > notes.txt");
        LocalSandbox attacker = bed.sandbox("attacker");
        Path state = temp.resolve("state");
        Files.createDirectories(state);
        Files.writeString(state.resolve("sessions.db"), "store");

        CommandResult other = run(attacker, "ls " + victim.directory() + "; cat " + victim.directory().resolve("notes.txt"));
        CommandResult siblings = run(attacker, "ls -A " + bed.root());
        CommandResult hidden = run(attacker, "for p in " + state + " /var/run/docker.sock /run/docker.sock /root /home/*/.ssh; do"
                + " test -e $p && echo \"visible $p\"; done; true");

        assertThat(other.exitCode()).isNotZero();
        assertThat(other.stdout()).doesNotContain("private", "notes.txt");
        assertThat(siblings.stdout().lines()).doesNotContain("victim").contains("attacker");
        assertThat(hidden.stdout()).isEmpty();
    }

    @Test
    void aLoopbackServerOfTheHostIsUnreachableWithoutNetworkAndReachableWithHostNetwork() throws Exception {
        try (ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) {
            CompletableFuture<Socket> accepted = CompletableFuture.supplyAsync(() -> {
                try {
                    return server.accept();
                } catch (IOException e) {
                    return null;
                }
            });
            String connect = "perl -MIO::Socket::INET -e 'IO::Socket::INET->new(PeerAddr => \"127.0.0.1:" + server.getLocalPort()
                    + "\", Timeout => 5) or exit 3; print \"connected\\n\"'";

            CommandResult none = run(bed.sandbox("offline"), connect);

            assertThat(none.exitCode()).isEqualTo(3);
            assertThat(accepted).isNotDone();
            // What the factory relies on to refuse an egress allow-list it could not enforce.
            assertThat(bed.factory().capabilities()).contains(SandboxCapability.NETWORK_ISOLATION);

            TestBed online = new TestBed(temp.resolve("online"), new LocalProviderConfig(temp.resolve("online/sessions").toString(),
                    null, null, null, null, LocalProviderConfig.HOST, null));
            try (online) {
                assertThat(online.factory().capabilities()).doesNotContain(SandboxCapability.NETWORK_ISOLATION);
                CommandResult host = run(online.sandbox("online"), connect);

                assertThat(host.stdout()).isEqualTo("connected\n");
                assertThat(accepted.get(30, TimeUnit.SECONDS)).isNotNull();
            }
            accepted.thenAccept(s -> {
                try {
                    s.close();
                } catch (IOException ignored) {
                    // closed already
                }
            });
        }
    }

    @Test
    void aCommandCannotSignalAHostProcess() throws Exception {
        Process victim = new ProcessBuilder("sleep", "300").start();
        try {
            CommandResult kill = run(bed.sandbox("killer"), "kill -9 " + victim.pid());

            assertThat(kill.exitCode()).isNotZero();
            assertThat(victim.waitFor(1, TimeUnit.SECONDS)).as("the host process was killed").isFalse();
            assertThat(victim.isAlive()).isTrue();
        } finally {
            victim.destroyForcibly().waitFor();
        }
    }

    @Test
    void tmpAndHomeArePrivateLastAcrossCommandsAndStopsStayOutOfTheCheckoutAndGoWithTheSession() {
        LocalSandbox sandbox = bed.sandbox("own");
        LocalSandbox other = bed.sandbox("other");
        run(sandbox, "echo t > /tmp/mark; echo h > \"$HOME/.mark\"");

        sandbox.stop();
        CommandResult after = run(sandbox, "cat /tmp/mark \"$HOME/.mark\"; ls -A");
        CommandResult neighbour = run(other, "cat /tmp/mark");

        assertThat(after.stdout()).isEqualTo("t\nh\n" + LocalSandbox.OWNER_MARKER + "\n");
        assertThat(neighbour.exitCode()).isNotZero();
        Path own = SessionPrivate.of(sandbox.directory()).base();
        assertThat(own.resolve("tmp/mark")).exists();

        assertThat(bed.factory().confinedServers()).as("fork servers of the live sessions").isEqualTo(2);
        sandbox.destroy();

        assertThat(own).doesNotExist();
        assertThat(bed.factory().confinedServers()).as("a destroyed session's fork server is forgotten").isEqualTo(1);
    }

    @Test
    void withoutAWorkingBubblewrapTheDefaultFallsBackToNoneWithOneWarningAndExplicitNamespacesFails() {
        List<LogRecord> warnings = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                warnings.add(record);
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        Logger logger = Logger.getLogger(LocalSandboxProvider.class.getName());
        logger.addHandler(capture);
        LocalSandboxProvider broken = new LocalSandboxProvider(temp.resolve("no-such-bwrap").toString());
        try (FactorySandbox fallback = broken.open(config(null, null), new TestProviderContext(temp.resolve("state")))) {
            LocalSandbox sandbox = (LocalSandbox) fallback.create(FactorySandboxContext.of("unconfined"));
            try {
                assertThat(fallback.isolation()).isEqualTo("none");
                assertThat(run(sandbox, "true").exitCode()).isZero();
                assertThat(warnings).singleElement().satisfies(w -> assertThat(w.getMessage()).contains("WITHOUT isolation", "bubblewrap"));
            } finally {
                sandbox.destroy();
            }
        } finally {
            logger.removeHandler(capture);
        }

        Path root = temp.resolve("explicit");
        assertThatThrownBy(() -> broken.open(new LocalProviderConfig(root.toString(), null, null, null, "namespaces", null, null),
                new TestProviderContext(temp.resolve("state"))))
                .isInstanceOf(SandboxException.class)
                .hasMessageContaining("providers.local.isolation is 'namespaces'")
                .hasMessageContaining("install the 'bubblewrap' package");
        assertThat(root).doesNotExist();
    }

    @Test
    void destroyThroughAnotherInstanceEndsTheBoundaryOfThisOne() throws Exception {
        LocalSandbox mine = bed.sandbox("shared");
        run(mine, "sleep 300 > /dev/null 2>&1 &");
        TestBed.SessionPid server = new TestBed.SessionPid(run(mine, "readlink /proc/self/ns/pid").stdout().trim(), 2);
        assertThat(TestBed.isDead(server)).as("the fork server runs").isFalse();
        LocalSandbox theirs = bed.track(bed.openFactory(config(LocalProviderConfig.NAMESPACES, null)), "shared");
        theirs.start();

        theirs.destroy();

        TestBed.assertDiesSoon(server);
        assertThat(mine.directory()).doesNotExist();
    }

    @Test
    void theBoundaryOutlivesTheThreadThatRanTheFirstCommand() throws Exception {
        LocalSandbox sandbox = bed.sandbox("threads");
        String[] first = new String[1];
        // A boundary tied to the thread that started it (bwrap --die-with-parent follows the thread) would die here.
        Thread shortLived = new Thread(() -> first[0] = run(sandbox, "readlink /proc/self/ns/pid").stdout());
        shortLived.start();
        shortLived.join();

        CommandResult later = run(sandbox, "readlink /proc/self/ns/pid");

        assertThat(first[0]).startsWith("pid:[");
        assertThat(later.stdout()).as("the same boundary, not a new one after the first died").isEqualTo(first[0]);
    }

    @Test
    void aConfiguredVolumeIsSharedReadWriteOrReadOnlyAndNothingBesideIt() throws IOException {
        Path shared = Files.createDirectories(temp.resolve("shared"));
        Path reference = Files.createDirectories(temp.resolve("reference"));
        Files.writeString(reference.resolve("ref.txt"), "ref\n");
        Path beside = Files.writeString(temp.resolve("beside.txt"), "beside\n");
        try (TestBed withVolumes = new TestBed(temp.resolve("v"), config(null, null).withVolumes(List.of(shared.toString(), reference + ":ro")))) {
            LocalSandbox sandbox = withVolumes.sandbox("volumes");

            CommandResult write = run(sandbox, "echo w > " + shared.resolve("w.txt") + "; cat " + reference.resolve("ref.txt"));
            CommandResult readOnly = run(sandbox, "echo x > " + reference.resolve("x.txt"));
            CommandResult outside = run(sandbox, "cat " + beside);

            assertThat(shared.resolve("w.txt")).hasContent("w");
            assertThat(write.stdout()).isEqualTo("ref\n");
            assertThat(readOnly.exitCode()).isNotZero();
            assertThat(reference.resolve("x.txt")).doesNotExist();
            assertThat(outside.stdout()).doesNotContain("beside");
        }
        assertThatThrownBy(() -> config(null, null).withVolumes(List.of("relative", "/x:rx")))
                .isInstanceOf(InvalidConfigValueException.class).hasMessageContaining("volumes[0]").hasMessageContaining("volumes[1]");
    }

    @Test
    void anUnknownIsolationOrNetworkIsInvalidConfigNamingKeyValueAndTheAllowedOnes() {
        assertThatThrownBy(() -> config("chroot", "internet"))
                .isInstanceOf(InvalidConfigValueException.class)
                .hasMessageContaining("isolation").hasMessageContaining("chroot").hasMessageContaining("namespaces, none")
                .hasMessageContaining("network").hasMessageContaining("internet").hasMessageContaining("none, host");
    }
}
