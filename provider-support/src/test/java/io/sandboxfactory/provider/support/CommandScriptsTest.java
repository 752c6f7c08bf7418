package io.sandboxfactory.provider.support;

import io.sandboxfactory.api.support.HostProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
    void anExecWithoutAnEnvironmentGivesTheWrapperTheVariablesAndTheMarkersThroughEnv(@TempDir Path dir) throws Exception {
        String token = CommandScripts.newToken();
        HostProcess host = HostProcess.current();
        List<String> argv = new ArrayList<>(List.of("setsid"));
        Map<String, String> env = new CommandDefaults("s", Map.of("GREETING", "hello"), "/", host)
                .environment(Map.of("GREETING", "hello world"), token, (name, value, where) -> { });
        argv.addAll(CommandScripts.runCommand(token, dir.toString(), "echo \"$GREETING|$SANDBOX_FACTORY_EXEC|$SANDBOX_FACTORY_HOST\"",
                env));
        Process process = new ProcessBuilder(argv).start();
        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(stdout(process)).isEqualTo("hello world|" + token + "|" + host.encoded() + "\n");
        assertThat(process.exitValue()).isZero();
    }

    @Test
    void killScriptKillsTheGroupAndEveryMarkedProcess(@TempDir Path dir) throws Exception {
        String token = CommandScripts.newToken();
        // Like Docker, start the wrapper as a session leader. Children: one in the group, one that
        // scrubbed its environment (found through the group), one in its own session (found by marker).
        Process process = start(token, dir.toString(),
                "sleep 600 & echo $!; env -i sleep 600 & echo $!; setsid sleep 600 & echo $!; sleep 600");
        List<Long> children = new ArrayList<>();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        for (int i = 0; i < 3; i++) {
            children.add(Long.parseLong(out.readLine().trim()));
        }
        assertThat(children).allMatch(CommandScriptsTest::running);

        Process kill = new ProcessBuilder(CommandScripts.killCommand(token)).redirectErrorStream(true).start();
        assertThat(kill.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();

        assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isEqualTo(137);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (children.stream().anyMatch(CommandScriptsTest::running) && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(children).noneMatch(CommandScriptsTest::running);
        assertThat(Path.of(CommandScripts.pidFile(token))).doesNotExist();
    }

    private static Process start(String token, String cwd, String commandLine) throws IOException {
        List<String> argv = new ArrayList<>(List.of("setsid"));
        argv.addAll(CommandScripts.runCommand(token, cwd, commandLine));
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
