package io.sandboxfactory.provider.support;

import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.api.support.Polling;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The wrapper and kill scripts, run by the host's real {@code /bin/sh} (no engine needed). */
class CommandScriptsTest {

    @Test
    void runsTheCommandInItsDirectoryPassesTheStatusAndRemovesThePidFile(@TempDir Path dir) throws Exception {
        String token = CommandScripts.newToken();
        Process process = start(token, dir.toString(), "pwd; echo err >&2; exit 7");
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isEqualTo(7);
        assertThat(stdout(process)).isEqualTo(dir.toRealPath() + "\n");
        assertThat(Path.of(CommandScripts.pidFile(token))).doesNotExist();
    }

    @Test
    void recordsItsOwnPidWhileTheCommandRuns(@TempDir Path dir) throws Exception {
        String token = CommandScripts.newToken();
        Process process = start(token, dir.toString(), "test \"$(cat " + CommandScripts.pidFile(token) + ")\" = \"$PPID\" && echo same");
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(stdout(process)).isEqualTo("same\n");
        assertThat(process.exitValue()).isZero();
    }

    @Test
    void aMissingDirectoryStopsBeforeTheCommandRuns(@TempDir Path dir) throws Exception {
        String token = CommandScripts.newToken();
        Process process = start(token, dir.resolve("missing").toString(), "echo ran");
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isNotZero();
        assertThat(stdout(process)).isEmpty();
        assertThat(new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8))
                .isEqualTo(CommandScripts.missingDirectorySignal(token));
        assertThat(Path.of(CommandScripts.pidFile(token))).doesNotExist();
    }

    @Test
    void anExecWithoutAnEnvironmentGetsTheVariablesVerbatimOnStdinAndOnlyTheMarkersInItsArgv(@TempDir Path dir) throws Exception {
        String token = CommandScripts.newToken();
        HostProcess host = HostProcess.current();
        String hostile = "it's \"$(touch pwned)\" `touch pwned2` $HOME '\\n\\' \\\n\nlast line\n";
        Map<String, String> requested = new LinkedHashMap<>();
        requested.put("GREETING", "hello world");
        requested.put("HOSTILE", hostile);
        requested.put("EMPTY", "");
        requested.put("IFS", "0123456789");
        Map<String, String> env = new CommandDefaults("s", Map.of("GREETING", "hello"), "/", host)
                .environment(requested, token, (name, value, where) -> { });
        CommandScripts.StdinExec exec = CommandScripts.runCommandWithEnvironmentOnStdin(token, dir.toString(),
                "printf '%s|%s|%s|%s|%s|' \"$GREETING\" \"$HOSTILE\" \"${EMPTY-unset}\" \"$SANDBOX_FACTORY_EXEC\" \"$SANDBOX_FACTORY_HOST\";"
                        + " test \"$(cat " + CommandScripts.pidFile(token) + ")\" = \"$PPID\" && echo same; cat", env);
        assertThat(exec.argv()).noneMatch(word -> word.contains("hello world") || word.contains("pwned") || word.contains("GREETING="))
                .contains(CommandScripts.MARKER_VARIABLE + "=" + token, CommandScripts.HOST_VARIABLE + "=" + host.encoded());

        List<String> argv = new ArrayList<>(List.of("setsid"));
        argv.addAll(exec.argv());
        Process process = new ProcessBuilder(argv).start();
        // Written and left open, as over a websocket exec: the command reads /dev/null (cat ends at once).
        process.getOutputStream().write(exec.stdin());
        process.getOutputStream().flush();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(stdout(process)).isEqualTo("hello world|" + hostile + "||" + token + "|" + host.encoded() + "|same\n");
        assertThat(process.exitValue()).isZero();
        assertThat(dir.resolve("pwned")).doesNotExist();
        assertThat(dir.resolve("pwned2")).doesNotExist();
    }

    @Test
    void anExecWhoseEnvironmentNeverArrivesIsMarkedForTheKillAndRunsNothingWhenItsStdinEnds(@TempDir Path dir) throws Exception {
        String token = CommandScripts.newToken();
        Map<String, String> env = new CommandDefaults("s", Map.of(), "/", HostProcess.current())
                .environment(Map.of("SECRET", "x"), token, (name, value, where) -> { });
        CommandScripts.StdinExec exec = CommandScripts.runCommandWithEnvironmentOnStdin(token, dir.toString(), "touch ran", env);

        Process waiting = new ProcessBuilder(exec.argv()).start();
        assertThat(Polling.until(Duration.ofSeconds(10), Duration.ofMillis(20), () -> marked(waiting.pid(), token)))
                .as("the reader carries the marker").isTrue();
        Process kill = new ProcessBuilder(CommandScripts.killCommand(token)).start();
        assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(waiting.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(waiting.exitValue()).isEqualTo(137);

        Process cut = new ProcessBuilder(exec.argv()).start();
        cut.getOutputStream().write(exec.stdin(), 0, exec.stdin().length - 1);
        cut.getOutputStream().close();
        assertThat(cut.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(cut.exitValue()).isEqualTo(1);
        assertThat(new String(cut.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).contains("no environment arrived");
        assertThat(dir.resolve("ran")).doesNotExist();
    }

    private static boolean marked(long pid, String token) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(pid), "environ")), StandardCharsets.UTF_8)
                    .contains(CommandScripts.MARKER_VARIABLE + "=" + token);
        } catch (IOException gone) {
            return false;
        }
    }

    @Test
    void killScriptKillsTheGroupAndEveryMarkedProcess(@TempDir Path dir) throws Exception {
        String token = CommandScripts.newToken();
        // Like Docker, start the wrapper as a session leader. Children: one in the group, one that
        // scrubbed its environment (found through the group), one in its own session (found by marker).
        Process process = start(token, dir.toString(),
                "sleep 600 & echo $!; env -i sleep 600 & echo $!; setsid sleep 600 & echo $!; sleep 600");
        List<Long> children = children(process, 3);
        assertThat(children).allMatch(CommandScriptsTest::running);

        Process kill = new ProcessBuilder(CommandScripts.killCommand(token)).redirectErrorStream(true).start();
        assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();

        assertKilled(process, children, token);
    }

    @Test
    void theWatchedWrapperKillsTheCommandWhenItsStdinEnds(@TempDir Path dir) throws Exception {
        String token = CommandScripts.newToken();
        // The host's stdin stays open (this JVM holds the pipe) until it is closed below, as the
        // engine closes an exec's stdin when its client dies.
        Process process = start(CommandScripts.runWatchedCommand(token, dir.toString(),
                "sleep 600 & echo $!; env -i sleep 600 & echo $!; setsid sleep 600 & echo $!; sleep 600"), token);
        List<Long> children = children(process, 3);
        assertThat(children).allMatch(CommandScriptsTest::running);

        process.getOutputStream().close();

        assertKilled(process, children, token);
    }

    @Test
    void theWatchedWrapperLeavesWhatACommandThatEndedStartedAndGivesTheCommandNoStdin(@TempDir Path dir) throws Exception {
        String token = CommandScripts.newToken();
        Process process = start(CommandScripts.runWatchedCommand(token, dir.toString(),
                "setsid sleep 600 >/dev/null 2>&1 & echo $!; cat; exit 5"), token);
        List<Long> children = children(process, 1);
        try {
            assertThat(process.waitFor(30, TimeUnit.SECONDS)).as("cat read /dev/null, not the open stdin").isTrue();
            assertThat(process.exitValue()).isEqualTo(5);
            // The watchdog is gone with the wrapper (no process of the command reads stdin any more),
            // so the end of stdin kills nothing now.
            assertThat(Polling.until(Duration.ofSeconds(10), Duration.ofMillis(20), () -> ProcessHandle.allProcesses()
                    .noneMatch(p -> p.info().commandLine().orElse("").contains(token)))).as("no watchdog left").isTrue();
            process.getOutputStream().close();
            assertThat(children).allMatch(CommandScriptsTest::running);
        } finally {
            children.forEach(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
        }
    }

    private static List<Long> children(Process process, int count) throws IOException {
        List<Long> children = new ArrayList<>();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        for (int i = 0; i < count; i++) {
            children.add(Long.parseLong(out.readLine().trim()));
        }
        return children;
    }

    /** The wrapper died by SIGKILL, every child of the command ends, and the pid file is gone. */
    private static void assertKilled(Process wrapper, List<Long> children, String token) throws InterruptedException {
        assertThat(wrapper.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(wrapper.exitValue()).isEqualTo(137);
        assertThat(Polling.until(Duration.ofSeconds(10), Duration.ofMillis(50),
                () -> children.stream().noneMatch(CommandScriptsTest::running))).as("children ended: %s", children).isTrue();
        assertThat(Path.of(CommandScripts.pidFile(token))).doesNotExist();
    }

    private static Process start(String token, String cwd, String commandLine) throws IOException {
        return start(CommandScripts.runCommand(token, cwd, commandLine), token);
    }

    private static Process start(List<String> wrapper, String token) throws IOException {
        List<String> argv = new ArrayList<>(List.of("setsid"));
        argv.addAll(wrapper);
        ProcessBuilder builder = new ProcessBuilder(argv);
        builder.environment().put(CommandScripts.MARKER_VARIABLE, token);
        return builder.start();
    }

    private static String stdout(Process process) throws IOException {
        return new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    /** Alive and not a zombie waiting to be reaped. */
    private static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            return stat.charAt(stat.lastIndexOf(')') + 2) != 'Z';
        } catch (IOException gone) {
            return false;
        }
    }
}
