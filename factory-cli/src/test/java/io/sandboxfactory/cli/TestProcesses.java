package io.sandboxfactory.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Processes a test starts and watches: the pid file a test's command writes ({@code echo $$ > file}),
 * whether a process has ended, and ending one as Ctrl-C does.
 */
final class TestProcesses {

    private TestProcesses() {
    }

    /** The pid in {@code file} once the command has written it whole. */
    static long awaitPid(Path file) {
        assertThat(Daemons.awaitCondition(() -> readPid(file).isPresent())).as("the command started (wrote " + file + ")").isTrue();
        return readPid(file).orElseThrow();
    }

    /**
     * The host pid of the process whose arguments are {@code arguments} exactly, once it runs: found in
     * the host's process table, so also inside a session's pid namespace, where the command's own
     * {@code $$} is not the host's pid.
     */
    static long awaitProcess(List<String> arguments) {
        assertThat(Daemons.awaitCondition(() -> findProcess(arguments).isPresent())).as("a process with arguments " + arguments + " runs").isTrue();
        return findProcess(arguments).orElseThrow();
    }

    /** The outermost such process: a shell's child between its fork and its exec carries the shell's arguments too. */
    private static Optional<Long> findProcess(List<String> arguments) {
        return ProcessHandle.allProcesses().filter(p -> has(p, arguments) && p.parent().filter(parent -> has(parent, arguments)).isEmpty())
                .map(ProcessHandle::pid).findFirst();
    }

    private static boolean has(ProcessHandle process, List<String> arguments) {
        return process.info().arguments().map(List::of).filter(arguments::equals).isPresent();
    }

    /**
     * A {@code sleep} duration no other test's command has (300 s and a fraction from {@code tag},
     * say the test's directory and a name), so {@link #awaitProcess} finds that command by it.
     */
    static String uniqueSleepSeconds(String tag) {
        return "300." + Math.floorMod(tag.hashCode(), 1_000_000_000);
    }

    /** Whether process {@code pid} has ended. */
    static boolean ended(long pid) {
        return ProcessHandle.of(pid).map(process -> !process.isAlive()).orElse(true);
    }

    /** The pid in {@code file}, or empty while it does not exist or is still being written. */
    static Optional<Long> readPid(Path file) {
        try {
            String text = Files.readString(file).strip();
            return text.matches("\\d+") ? Optional.of(Long.parseLong(text)) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Ends {@code process} as Ctrl-C would and checks it ended so: SIGTERM, which a JVM takes as it
     * takes Ctrl-C's SIGINT (the test's own JVM may have been started with SIGINT ignored, and its
     * children would inherit that), so the process ends with 128 + 15 once its command is
     * cancelled. Through the handle: {@code Process.destroy()} would also close the process's stdin.
     */
    static void endLikeCtrlC(Process process) throws InterruptedException {
        process.toHandle().destroy();
        assertThat(process.waitFor(2, TimeUnit.MINUTES)).as("the process ended").isTrue();
        assertThat(process.exitValue()).isEqualTo(143);
    }
}
