package io.sandboxfactory.bench;

import io.sandboxfactory.api.CommandExecutor;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.bench.report.Group;
import io.sandboxfactory.bench.stats.Contender;
import io.sandboxfactory.bench.stats.Interleaved;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One command through every exec path, against a raw {@code ProcessBuilder}: the local provider's
 * sandbox without isolation and inside its bubblewrap boundary, the factory's session handle (which also journals the command), the Docker provider by
 * its exec channel and by one exec per command (and by its exec channel under gVisor, {@code runtime:
 * runsc}, when the engine has it), {@code docker exec}, Testcontainers'
 * {@code execInContainer}, and {@code factory exec} through the daemon.
 */
public final class ExecGroups {

    public static final String RAW = "raw ProcessBuilder sh -c";
    /** The local provider's sandbox without isolation ({@code isolation: none}). */
    public static final String LOCAL = "local provider executeCommand";
    /** The local provider's sandbox inside its bubblewrap boundary ({@code isolation: namespaces}). */
    public static final String LOCAL_ISOLATED = "local provider executeCommand, namespaces";
    public static final String TRUE = "true";
    public static final String TEN_MIB = "head -c 10485760 /dev/zero | tr '\\0' x";

    /** Why the two rows of the local exec differ, for the report's notes. */
    public static final String BACK_TO_BACK_NOTE = "exec true vs exec true, back to back: in the first the slow paths (Docker, the"
            + " CLI) run between two local calls, in the second nothing does, as in a caller's loop (so does ExecLoop, through the"
            + " public API only: scripts/benchmark.sh factory-bench io.sandboxfactory.bench.local.ExecLoop). A local call passes"
            + " through more processes and threads than a raw ProcessBuilder (the perl fork server and its fork, the JVM's reader"
            + " thread, two output pumps, against a child and a reaper thread), each a wait for a core on a busy host, and leaves"
            + " work to another thread when it returns (its running record kept as a spare): back to back the next call pays for"
            + " that; after the slow paths it is done, but those threads wake from idle.";

    private static final CommandOptions OPTIONS = CommandOptions.builder().timeout(Duration.ofMinutes(1)).build();

    private final Subjects subjects;

    public ExecGroups(Subjects subjects) {
        this.subjects = subjects;
    }

    public Group measure(String title, String command, long expectedBytes, Interleaved rounds) throws Exception {
        return new Group(title, RAW, rounds.run(contenders(command, expectedBytes)));
    }

    /**
     * The raw process and the local provider's sandboxes alone, so each call follows the previous one
     * at once, as in a caller's loop ({@code ExecLoop}): in {@link #measure} the slow paths (Docker, the
     * CLI) run between two local calls, and what a call leaves to other threads after it returned is
     * done by then.
     */
    public Group measureBackToBack(String title, String command, long expectedBytes, Interleaved rounds) throws Exception {
        List<Contender> local = contenders(command, expectedBytes).stream()
                .filter(c -> List.of(RAW, LOCAL, LOCAL_ISOLATED).contains(c.name())).toList();
        return new Group(title, RAW, rounds.run(local));
    }

    List<Contender> contenders(String command, long expectedBytes) {
        List<Contender> out = new ArrayList<>();
        out.add(Contender.of(RAW, () -> expect(RAW, expectedBytes, subjects.raw().run(command))));
        out.add(Contender.of(LOCAL, () -> viaApi("local provider", subjects.localSession().sandbox(), command, expectedBytes)));
        subjects.isolatedSession().ifPresent(isolated -> out.add(Contender.of(LOCAL_ISOLATED, () -> viaApi("local provider, namespaces",
                isolated.sandbox(), command, expectedBytes))));
        out.add(Contender.of("local session handle (journaled)", () -> viaApi("local session", subjects.localSession(), command,
                expectedBytes)));
        subjects.docker().ifPresent(docker -> {
            out.add(Contender.of("docker provider, exec channel", () -> viaApi("docker channel", docker.channel(), command, expectedBytes)));
            out.add(Contender.of("docker provider, one exec each", () -> viaApi("docker per exec", docker.perExec(), command, expectedBytes)));
            docker.gvisor().ifPresent(gvisor -> out.add(Contender.of("docker provider, exec channel, runsc",
                    () -> viaApi("docker runsc", gvisor, command, expectedBytes))));
        });
        subjects.dockerWithCli().ifPresent(docker -> out.add(Contender.of("docker exec CLI", () -> subjects.workspace().processes()
                .quiet(subjects.workspace().root(), Map.of(), List.of("docker", "exec", docker.containerId(), "sh", "-c", command)))));
        subjects.testcontainers().ifPresent(tc -> out.add(Contender.of("Testcontainers execInContainer", () -> tc.exec(command))));
        subjects.cli().ifPresent(cli -> out.add(Contender.of("factory exec (CLI, daemon)", () -> cli.command().run(cli.state(), "exec",
                cli.session(), "--", "sh", "-c", command))));
        return out;
    }

    private static void viaApi(String path, CommandExecutor executor, String command, long expectedBytes) {
        CommandResult result = executor.executeCommand(command, List.of(), OPTIONS);
        if (result.exitCode() != 0) {
            throw new IllegalStateException(path + ": '" + command + "' exited " + result.exitCode() + ": " + result.stderr());
        }
        expect(path, expectedBytes, result.stdout().length());
    }

    private static void expect(String path, long expected, long printed) {
        if (printed != expected) {
            throw new IllegalStateException(path + " returned " + printed + " bytes of output; the command prints " + expected + ".");
        }
    }
}
