package io.sandboxfactory.provider.local;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A command's end reaches the JVM even when the fork server's SIGCHLD handler does not run in time.
 * Perl runs a {@code %SIG} handler only at a safe point, so a SIGCHLD that arrives just before the
 * server's {@code select()} blocks waits there, and the exit was reported only with the next request:
 * under load, a daemon's {@code factory exec s1 -- true} hung for 10 minutes and a workspace probe
 * timed out after 60 s. Here the server runs with SIGCHLD blocked, which makes that window the
 * whole run.
 */
class ForkServerLostSignalTest {

    /** SIGCHLD (17) in a {@code /proc/<pid>/status} signal mask. */
    private static final long SIGCHLD_BIT = 1L << 16;

    @TempDir
    Path temp;

    private Process server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.destroyForcibly();
        }
    }

    @Test
    void theExitOfTheLastCommandIsReportedThoughItsSignalIsNeverHandled() throws Exception {
        Path fifos = Files.createDirectory(temp.resolve("fifos"));
        // A blocked signal stays blocked across exec: the server starts with SIGCHLD held back.
        server = new ProcessBuilder("/usr/bin/perl", "-MPOSIX", "-e",
                "sigprocmask(SIG_BLOCK, POSIX::SigSet->new(SIGCHLD)) or die; exec {$ARGV[0]} @ARGV or die",
                "/usr/bin/perl", "-e", ForkServerProtocol.script(), fifos.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        DataOutputStream requests = new DataOutputStream(server.getOutputStream());
        DataInputStream replies = new DataInputStream(server.getInputStream());

        ForkServerProtocol.send(requests, 'S', 1, temp + "\0exit 3\0PATH=/usr/bin:/bin");
        assertThat(ForkServerProtocol.receive(replies).type()).isEqualTo('P');
        assertThat(Long.parseLong(signalMask(server.pid()), 16) & SIGCHLD_BIT).as("SIGCHLD blocked in the server").isNotZero();
        try (InputStream out = new FileInputStream(fifos.resolve("1.o").toFile());
             InputStream err = new FileInputStream(fifos.resolve("1.e").toFile())) {
            // No request follows: only the server itself can notice the exit.
            CompletableFuture<ForkServerProtocol.Frame> exit = CompletableFuture.supplyAsync(() -> receive(replies));

            ForkServerProtocol.Frame frame = exit.get(60, TimeUnit.SECONDS);

            assertThat(frame.type()).isEqualTo('X');
            assertThat(frame.payload()).isEqualTo("3 0");
        }
    }

    private static ForkServerProtocol.Frame receive(DataInputStream in) {
        try {
            return ForkServerProtocol.receive(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String signalMask(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream()
                .filter(line -> line.startsWith("SigBlk:")).findFirst().orElseThrow().substring("SigBlk:".length()).strip();
    }
}
