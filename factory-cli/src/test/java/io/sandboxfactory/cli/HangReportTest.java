package io.sandboxfactory.cli;

import io.sandboxfactory.cli.daemon.FactoryDaemon;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The report a test prints before killing a hung CLI command, taken from real JVMs. */
class HangReportTest {

    @TempDir
    Path tmp;

    private final List<Process> started = new ArrayList<>();

    @AfterEach
    void killSleepers() {
        started.forEach(p -> {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        });
    }

    /** A JVM that marks itself ready and then waits, in a method the report must show, until it is killed. */
    public static final class Sleeper {
        public static void main(String[] args) throws Exception {
            waitInANamedMethod(Path.of(args[0]));
        }

        private static void waitInANamedMethod(Path ready) throws Exception {
            Files.createFile(ready);
            Thread.sleep(Long.MAX_VALUE);
        }
    }

    @Test
    void showsTheThreadsOfTheCommandsJvmsAndOfTheStateDirectorysDaemonWithItsLog() throws Exception {
        Path stateDir = tmp.resolve("state");
        Daemons daemons = new Daemons(stateDir);
        Files.createDirectories(daemons.directory());
        Files.writeString(daemons.directory().resolve("daemon-1.log"), "first line\nthe daemon's last words\n");
        // The command is a shell that started a JVM (as `script` starts the CLI); the daemon is no descendant of it.
        Process command = start(List.of("sh", "-c", CliProcess.shellLine(sleeper(tmp.resolve("child-ready"))) + "; true"));
        Process daemon = start(sleeper(tmp.resolve("daemon-ready"), FactoryDaemon.class.getName(), daemons.directory().toString()));
        awaitFiles(tmp.resolve("child-ready"), tmp.resolve("daemon-ready"));
        long childPid = command.descendants().findFirst().orElseThrow().pid();

        String report = HangReport.of(command.toHandle(), Optional.of(stateDir));

        assertThat(report).contains("--- threads of pid " + childPid + " (", "--- threads of pid " + daemon.pid() + " (")
                .doesNotContain("--- threads of pid " + command.pid() + " (")
                .contains("the daemon's last words", "daemon-1.log");
        assertThat(occurrences(report, "HangReportTest$Sleeper.waitInANamedMethod")).isEqualTo(2);
    }

    @Test
    void withoutAStateDirectoryOnlyTheCommandsOwnJvmIsShown() throws Exception {
        Process command = start(sleeper(tmp.resolve("ready")));
        awaitFiles(tmp.resolve("ready"));

        String report = HangReport.of(command.toHandle(), Optional.empty());

        assertThat(report).startsWith("\n--- threads of pid " + command.pid() + " (").doesNotContain(" lines of ");
        assertThat(occurrences(report, "HangReportTest$Sleeper.waitInANamedMethod")).isEqualTo(1);
    }

    private Process start(List<String> command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        started.add(process);
        return process;
    }

    private static List<String> sleeper(Path ready, String... extraArgs) throws URISyntaxException {
        List<String> command = new ArrayList<>(List.of(CliProcess.javaBin(), "-cp",
                Path.of(HangReportTest.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString(),
                Sleeper.class.getName(), ready.toString()));
        command.addAll(List.of(extraArgs));
        return command;
    }

    private static void awaitFiles(Path... files) {
        assertThat(Daemons.awaitCondition(() -> List.of(files).stream().allMatch(Files::exists)))
                .as("the sleepers are waiting").isTrue();
    }

    private static long occurrences(String text, String part) {
        return Pattern.compile(part, Pattern.LITERAL).matcher(text).results().count();
    }
}
