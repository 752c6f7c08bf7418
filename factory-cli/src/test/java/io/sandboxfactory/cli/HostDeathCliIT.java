package io.sandboxfactory.cli;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.sandboxfactory.cli.Daemons.awaitCondition;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Commands die with their host (issue 43): {@code kill -9} of the factory daemon, of a {@code factory}
 * process or of {@code factory mcp} in the middle of a command leaves no process of the command
 * running (the real jar, the local provider, real git); and the ephemeral session of a {@code run}
 * whose process died is removed by the next {@code sweep}, which leaves a live run's session and an
 * opened one alone.
 *
 * <p>The sessions run with the local provider's default isolation, in a pid namespace of their own:
 * the test finds a command's processes in the host's process table by their arguments, which are
 * unique per test, its shell and a {@code sleep} the shell started in the background and waits
 * for, so a command whose shell alone died would still be caught.
 */
class HostDeathCliIT {

    @TempDir
    Path temp;

    Path state;
    Path bare;
    Daemons daemons;
    private final List<Process> started = new ArrayList<>();

    @BeforeEach
    void setUp() throws Exception {
        state = temp.resolve("state");
        bare = GitRepos.bareWithMain(temp, "app");
        daemons = new Daemons(state);
    }

    @AfterEach
    void cleanUp() throws Exception {
        for (Process process : started) {
            process.destroyForcibly().waitFor(1, TimeUnit.MINUTES);
        }
        daemons.stop();
    }

    private CliProcess cli(DaemonMode mode) {
        return mode.cli(state).in(temp);
    }

    /** The host pids of a command's shell and of the background sleep it waits for. */
    private record Marked(long shell, long child) {
        boolean ended() {
            return TestProcesses.ended(shell) && TestProcesses.ended(child);
        }
    }

    /** A command line, unique to this test and {@code name}, that starts a background child and waits for it. */
    private String marked(String name) {
        return ": " + name + "-" + temp.getFileName() + "; sleep " + TestProcesses.uniqueSleepSeconds(name + temp) + " & wait";
    }

    private Marked awaitMarkers(String name) {
        return new Marked(TestProcesses.awaitProcess(List.of("-c", marked(name))), TestProcesses.awaitProcess(List.of(TestProcesses.uniqueSleepSeconds(name + temp))));
    }

    /**
     * A command line that waits until the test releases it ({@link #release}): a file {@code .release}
     * in its working directory, the session's checkout.
     */
    private String waitsForRelease(String name) {
        return ": " + name + "-" + temp.getFileName() + "; while [ ! -e .release ]; do sleep 0.05; done";
    }

    private long awaitWaiting(String name) {
        return TestProcesses.awaitProcess(List.of("-c", waitsForRelease(name)));
    }

    /** Releases the command {@link #waitsForRelease} started as {@code shell}: through its working directory, as it sees it. */
    private static void release(long shell) throws IOException {
        Files.createFile(Path.of("/proc", Long.toString(shell), "cwd", ".release"));
    }

    private Process start(CliProcess cli, String... args) throws IOException {
        Process process = cli.start(args);
        started.add(process);
        return process;
    }

    private void open(CliProcess cli, String session) {
        CliProcess.Result open = cli.run("open", session, "--repo", bare.toString(), "--branch", "work-" + session);
        assertThat(open.exitCode()).as(open.toString()).isZero();
    }

    /** The one daemon, once it listens (so the next command is served there). */
    private ProcessHandle awaitDaemon() {
        assertThat(awaitCondition(() -> daemons.processes().size() == 1 && daemons.sockets().stream().anyMatch(Daemons::listening)))
                .as("one daemon listens").isTrue();
        return daemons.processes().get(0);
    }

    private static void killNine(ProcessHandle process) {
        process.destroyForcibly();
        assertThat(awaitCondition(() -> !process.isAlive())).as("killed with SIGKILL").isTrue();
    }

    @Test
    void aDaemonKilledMidExecTakesTheCommandWithIt() throws Exception {
        CliProcess cli = cli(DaemonMode.ON);
        open(cli, "s1");
        ProcessHandle daemon = awaitDaemon();
        start(cli, "exec", "s1", "--", "sh", "-c", marked("exec"));
        Marked command = awaitMarkers("exec");

        killNine(daemon);

        assertThat(awaitCondition(command::ended)).as("no process of the command outlives the daemon").isTrue();
    }

    @Test
    void anExecKilledInItsOwnProcessTakesTheCommandWithIt() throws Exception {
        CliProcess cli = cli(DaemonMode.OFF);
        open(cli, "s1");
        Process client = start(cli, "exec", "s1", "--", "sh", "-c", marked("exec"));
        Marked command = awaitMarkers("exec");

        killNine(client.toHandle());

        assertThat(awaitCondition(command::ended)).as("no process of the command outlives its factory process").isTrue();
        assertThat(cli.run("exec", "s1", "--", "echo", "usable").stdout()).isEqualTo("usable\n");
    }

    @Test
    void aRunKilledInItsOwnProcessLeavesASessionTheNextSweepRemovesButNeverALiveRunsOrAnOpenedOne() throws Exception {
        CliProcess cli = cli(DaemonMode.OFF);
        open(cli, "kept");
        Process live = start(cli, "run", "--session", "r-live", "--repo", bare.toString(), "--branch", "live", "--", "sh", "-c",
                waitsForRelease("live"));
        long release = awaitWaiting("live");
        Process dying = start(cli, "run", "--session", "r-dead", "--repo", bare.toString(), "--branch", "dead", "--", "sh", "-c",
                marked("run"));
        Marked command = awaitMarkers("run");

        killNine(dying.toHandle());

        assertThat(awaitCondition(command::ended)).as("no process of the command outlives its run").isTrue();
        assertSweepRemovesTheDeadRunOnly(cli, release, live);
    }

    @Test
    void aDaemonKilledMidRunLeavesASessionTheNextSweepRemovesButNeverALiveRunsOrAnOpenedOne() throws Exception {
        CliProcess cli = cli(DaemonMode.ON);
        open(cli, "kept");
        ProcessHandle daemon = awaitDaemon();
        start(cli, "run", "--session", "r-dead", "--repo", bare.toString(), "--branch", "dead", "--", "sh", "-c", marked("run"));
        Marked command = awaitMarkers("run");

        killNine(daemon);

        assertThat(awaitCondition(command::ended)).as("no process of the command outlives the daemon").isTrue();
        // A command in its own process (the dead daemon's socket is stale) leaves a fresh daemon behind;
        // a live run there, whose session that daemon holds, and the sweep it serves too.
        assertThat(cli.run("exec", "kept", "--", "true").exitCode()).isZero();
        assertThat(awaitDaemon().pid()).isNotEqualTo(daemon.pid());
        Process live = start(cli, "run", "--session", "r-live", "--repo", bare.toString(), "--branch", "live", "--", "sh", "-c",
                waitsForRelease("live"));
        long release = awaitWaiting("live");
        assertSweepRemovesTheDeadRunOnly(cli, release, live);
    }

    private void assertSweepRemovesTheDeadRunOnly(CliProcess cli, long release, Process live) throws Exception {
        CliProcess.Result before = cli.run("list");
        assertThat(before.stdout()).as(before.toString()).contains("r-dead", "r-live", "kept");

        CliProcess.Result sweep = cli.run("sweep");

        assertThat(sweep.exitCode()).as(sweep.toString()).isZero();
        assertThat(sweep.stdout()).as(sweep.toString()).contains("retired r-dead (its run's process died)")
                .doesNotContain("r-live").doesNotContain("kept");
        CliProcess.Result after = cli.run("list");
        assertThat(after.stdout()).as(after.toString()).doesNotContain("r-dead").contains("r-live", "kept");
        assertThat(state.resolve("sessions/r-dead")).doesNotExist();
        assertThat(cli.run("sweep").stdout()).as("nothing more to sweep").doesNotContain("retired");

        release(release);
        assertThat(live.waitFor(2, TimeUnit.MINUTES)).as("the live run finished").isTrue();
        assertThat(live.exitValue()).as("the live run's command, untouched by the sweep").isZero();
    }

    @Test
    void anMcpServerKilledMidSessionExecTakesTheCommandWithIt() throws Exception {
        List<String> command = new ArrayList<>(List.of(CliProcess.javaBin(), "-jar", StartupArchive.jar().toString(),
                "--state-dir", state.toString(), "mcp"));
        ProcessBuilder builder = new ProcessBuilder(command).redirectError(temp.resolve("mcp.err").toFile());
        builder.environment().clear();
        builder.environment().putAll(McpServerIT.environment(Map.of()));
        Process server = builder.start();
        started.add(server);
        BufferedReader replies = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
        OutputStream requests = server.getOutputStream();

        send(requests, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\","
                + "\"capabilities\":{},\"clientInfo\":{\"name\":\"raw\",\"version\":\"1\"}}}");
        awaitReply(replies, 1);
        send(requests, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        send(requests, "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"session_open\",\"arguments\":"
                + "{\"id\":\"agent\",\"repo\":\"" + bare + "\",\"branch\":\"b\"}}}");
        assertThat(awaitReply(replies, 2)).doesNotContain("\"isError\":true");
        send(requests, "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"session_exec\",\"arguments\":"
                + "{\"id\":\"agent\",\"command\":\"" + marked("mcp").replace("\\", "\\\\").replace("\"", "\\\"") + "\"}}}");
        Marked running = awaitMarkers("mcp");

        killNine(server.toHandle());

        assertThat(awaitCondition(running::ended)).as("no process of the command outlives the MCP server").isTrue();
    }

    private static void send(OutputStream requests, String line) throws IOException {
        requests.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        requests.flush();
    }

    /** The server's reply to request {@code id}, skipping notifications. */
    private static String awaitReply(BufferedReader replies, int id) throws IOException {
        for (String line = replies.readLine(); line != null; line = replies.readLine()) {
            if (line.contains("\"id\":" + id + ",") || line.contains("\"id\":" + id + "}")) {
                return line;
            }
        }
        throw new AssertionError("The MCP server ended before it answered request " + id);
    }
}
