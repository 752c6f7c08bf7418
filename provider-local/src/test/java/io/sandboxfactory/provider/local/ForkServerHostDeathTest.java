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
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Commands die with their host: when the fork server's JVM dies (its stdin ends) every command it
 * still runs ends — SIGTERM to its group, SIGKILL for what ignores that. Driven over the server's own
 * protocol, so the JVM's death is exactly the end of its stdin. The server leads a process group of
 * its own, so a SIGKILL to its host's whole group (a terminal's, a supervisor's) does not take it
 * along before it could end them.
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
    void whenItsHostDiesEveryCommandItRunsEndsAlsoOneThatIgnoresSigterm() throws Exception {
        Path fifos = Files.createDirectory(temp.resolve("fifos"));
        Process server = new ProcessBuilder("/usr/bin/perl", "-e", ForkServerProtocol.script(), fifos.toString())
                .redirectError(ProcessBuilder.Redirect.DISCARD).start();
        DataOutputStream requests = new DataOutputStream(server.getOutputStream());
        DataInputStream replies = new DataInputStream(server.getInputStream());

        long plain = start(requests, replies, fifos, 1, "sleep 600");
        long stubborn = start(requests, replies, fifos, 2, "trap '' TERM; sleep 600 & wait");

        requests.close();

        assertThat(server.waitFor(60, TimeUnit.SECONDS)).as("the server exits when its stdin ends").isTrue();
        assertThat(awaitCondition(() -> !groupAlive(plain))).as("a command ended with its host").isTrue();
        assertThat(awaitCondition(() -> !groupAlive(stubborn))).as("a command that ignores SIGTERM, killed").isTrue();
    }

    @Test
    void aKillOfItsHostsWholeProcessGroupLeavesTheServerToEndItsCommands() throws Exception {
        Path fifos = Files.createDirectory(temp.resolve("fifos"));
        // The host: a shell leading a process group (setsid) with the server as its child, the server's
        // stdin this test's pipe (an asynchronous list would otherwise read /dev/null).
        Process host = new ProcessBuilder("setsid", "/bin/sh", "-c", "exec 3<&0; /usr/bin/perl -e \"$1\" \"$2\" <&3 3<&- & wait",
                "sh", ForkServerProtocol.script(), fifos.toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        DataOutputStream requests = new DataOutputStream(host.getOutputStream());
        DataInputStream replies = new DataInputStream(host.getInputStream());
        long command = start(requests, replies, fifos, 1, "sleep 600");
        long server = parentOf(command);
        assertThat(processGroupOf(server)).as("the server leads a group of its own").isEqualTo(server);

        new ProcessBuilder("kill", "-KILL", "--", "-" + host.pid()).redirectErrorStream(true).start().waitFor();
        assertThat(host.waitFor(60, TimeUnit.SECONDS)).as("the host's group killed").isTrue();
        requests.close();

        assertThat(awaitCondition(() -> !groupAlive(command))).as("the command, ended by the server that outlived the group kill").isTrue();
    }

    /** Starts {@code commandLine} as command {@code id}; its pid. */
    private long start(DataOutputStream requests, DataInputStream replies, Path fifos, int id, String commandLine) throws IOException {
        ForkServerProtocol.send(requests, 'S', id, temp + "\0" + commandLine + "\0PATH=/usr/bin:/bin");
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

    private static long parentOf(long pid) throws IOException {
        return Long.parseLong(statFields(pid)[1]);
    }

    private static long processGroupOf(long pid) throws IOException {
        return Long.parseLong(statFields(pid)[2]);
    }

    /** The fields of {@code /proc/<pid>/stat} after the command name: state, ppid, pgrp, ... */
    private static String[] statFields(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        return stat.substring(stat.lastIndexOf(')') + 2).split(" ");
    }

    /** Polls for up to 60 s; a condition, not a timing assertion. */
    private static boolean awaitCondition(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(20);
        }
        return true;
    }

    /** Whether a process of group {@code pgid} still runs (a zombie does not count: it only waits to be reaped). */
    private static boolean groupAlive(long pgid) {
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
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
