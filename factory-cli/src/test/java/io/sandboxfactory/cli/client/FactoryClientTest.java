package io.sandboxfactory.cli.client;

import io.sandboxfactory.cli.daemon.DaemonClient;
import io.sandboxfactory.cli.daemon.FakeDaemon;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;

import static org.assertj.core.api.Assertions.assertThat;

/** The minimal client against a stand-in daemon: what it forwards, what it relays, and when it hands over to the full CLI. */
class FactoryClientTest {

    @TempDir
    Path state;
    @TempDir
    Path workingDirectory;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private OptionalInt answer(Map<String, String> environment, String... args) {
        DaemonClient daemon = DaemonClient.of(args, environment, workingDirectory, workingDirectory);
        return FactoryClient.answer(args, daemon, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String[] withState(String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "--state-dir";
        all[1] = state.toString();
        System.arraycopy(args, 0, all, 2, args.length);
        return all;
    }

    @Test
    void forwardsArgumentsWorkingDirectoryAndEnvironmentAndRelaysOutputAndExitCode() throws Exception {
        try (FakeDaemon daemon = FakeDaemon.listen(state, (request, frames) -> frames.started().stdout("out 1\n").stderr("err 1\n")
                .stdout("out 2\n").exit(7))) {
            String[] args = withState("exec", "s1", "--", "sh", "-c", "echo 'a b'");

            OptionalInt code = answer(Map.of("GREETING", "hello", "FACTORY_STATE_DIR", "/elsewhere"), args);

            assertThat(code).hasValue(7);
            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("out 1\nout 2\n");
            assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("err 1\n");
            assertThat(daemon.firstRequest().args()).containsExactly(args);
            assertThat(daemon.firstRequest().workingDirectory()).isEqualTo(workingDirectory.toString());
            assertThat(daemon.firstRequest().environment()).containsEntry("GREETING", "hello").hasSize(2);
        }
    }

    @Test
    void aDaemonThatDeclinesLeavesTheCommandToTheFullCli() throws Exception {
        try (FakeDaemon daemon = FakeDaemon.listen(state, (request, frames) -> frames.declined())) {
            assertThat(answer(Map.of(), withState("exec", "s1", "--", "true"))).isEmpty();
            assertThat(daemon.connections()).isEqualTo(1);
            assertThat(out.size() + err.size()).as("nothing printed: the full CLI runs it").isZero();
        }
    }

    @Test
    void withoutADaemonTheFullCliRunsTheCommand() {
        assertThat(answer(Map.of(), withState("exec", "s1", "--", "true"))).isEmpty();
        assertThat(out.size() + err.size()).isZero();
    }

    @Test
    void commandsTheDaemonDoesNotServeAndTurningItOffNeverReachIt() throws Exception {
        try (FakeDaemon daemon = FakeDaemon.listen(state, (request, frames) -> frames.started().exit(0))) {
            assertThat(answer(Map.of(), withState("shell", "s1"))).isEmpty();
            assertThat(answer(Map.of(), withState("providers"))).isEmpty();
            assertThat(answer(Map.of(), withState("exec", "--help"))).isEmpty();
            assertThat(answer(Map.of("FACTORY_DAEMON", "off"), withState("exec", "s1", "--", "true"))).isEmpty();
            assertThat(daemon.connections()).isZero();
        }
    }

    @Test
    void aDaemonThatStopsMidCommandIsAnInfrastructureFailureNotARerun() throws Exception {
        try (FakeDaemon daemon = FakeDaemon.listen(state, (request, frames) -> frames.started().stdout("partial"))) {
            OptionalInt code = answer(Map.of(), withState("exec", "s1", "--", "true"));

            assertThat(code).as("it may have run in part: never run again in process").hasValue(1);
            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("partial");
            assertThat(err.toString(StandardCharsets.UTF_8)).contains("the factory daemon stopped before the command finished");
        }
    }

    @Test
    void answersTheVersionItselfWithTheLinePicocliPrints() throws Exception {
        try (FakeDaemon daemon = FakeDaemon.listen(state, (request, frames) -> frames.started().exit(0))) {
            assertThat(answer(Map.of(), "--version")).hasValue(0);
            assertThat(answer(Map.of(), "-V")).hasValue(0);
            assertThat(daemon.connections()).isZero();
        }
        String line = VersionLine.text() + System.lineSeparator();
        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(line + line);
        assertThat(VersionLine.text()).startsWith("factory ").endsWith(" (Java " + Runtime.version() + ")");
    }

    @Test
    void onlyABareVersionRequestIsTheClientsOwn() {
        assertThat(VersionLine.asked(new String[] {"--version"})).isTrue();
        for (List<String> other : List.of(List.of("--quiet", "--version"), List.of("exec", "-V"), List.of("--version", "--help"), List.<String>of())) {
            assertThat(VersionLine.asked(other.toArray(String[]::new))).as(other.toString()).isFalse();
        }
    }
}
