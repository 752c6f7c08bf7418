package io.sandboxfactory.provider.local;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the fork server does with the commands it runs when its JVM dies (its stdin ends): those
 * the JVM recorded on disk keep running, for the next start to reap from their records; those it
 * had not recorded yet — nothing could find them after the JVM — end with it. Driven over the
 * server's own protocol, so the JVM's death is exactly the end of its stdin.
 */
class ForkServerHostDeathTest {

    @TempDir
    Path temp;

    private final List<Long> groups = new ArrayList<>();
    private final List<InputStream> outputs = new ArrayList<>();

    @AfterEach
    void killLeftovers() throws Exception {
        for (long group : groups) {
            new ProcessBuilder("kill", "-KILL", "--", "-" + group).redirectErrorStream(true).start().waitFor();
        }
        for (InputStream output : outputs) {
            output.close();
        }
    }

    @Test
    void whenItsHostDiesTheUnrecordedCommandsEndAndTheRecordedOnesKeepRunning() throws Exception {
        Path fifos = Files.createDirectory(temp.resolve("fifos"));
        Process server = new ProcessBuilder("/usr/bin/perl", "-e", ForkServerProtocol.script(), fifos.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        DataOutputStream requests = new DataOutputStream(server.getOutputStream());
        DataInputStream replies = new DataInputStream(server.getInputStream());

        long recorded = start(requests, replies, fifos, 1);
        long unrecorded = start(requests, replies, fifos, 2);
        ForkServerProtocol.send(requests, 'R', 1, "");

        requests.close();

        assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("the server exits when its stdin ends").isTrue();
        assertThat(groupAlive(unrecorded)).as("the command its host never recorded").isFalse();
        assertThat(groupAlive(recorded)).as("the recorded command, left for the next start to reap").isTrue();
    }

    /** Starts {@code sleep 600} as command {@code id}; its pid. */
    private long start(DataOutputStream requests, DataInputStream replies, Path fifos, int id) throws IOException {
        ForkServerProtocol.send(requests, 'S', id, temp + "\0sleep 600\0PATH=/usr/bin:/bin");
        ForkServerProtocol.Frame started = ForkServerProtocol.receive(replies);
        assertThat(started.id()).isEqualTo(id);
        assertThat(started.type()).as(started.payload()).isEqualTo('P');
        long pid = Long.parseLong(started.payload());
        groups.add(pid);
        // The command opens its output FIFOs before it runs, and waits for a reader on each.
        outputs.add(new FileInputStream(fifos.resolve(id + ".o").toFile()));
        outputs.add(new FileInputStream(fifos.resolve(id + ".e").toFile()));
        return pid;
    }

    /** Whether a process of group {@code pgid} still runs (a zombie does not count: it only waits to be reaped). */
    private static boolean groupAlive(long pgid) throws IOException {
        try (var processes = Files.list(Path.of("/proc"))) {
            return processes.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).anyMatch(p -> {
                try {
                    String stat = Files.readString(p.resolve("stat"));
                    String[] fields = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
                    return !fields[0].equals("Z") && Long.parseLong(fields[2]) == pgid;
                } catch (IOException | RuntimeException e) {
                    return false; // gone while being read
                }
            });
        }
    }
}
