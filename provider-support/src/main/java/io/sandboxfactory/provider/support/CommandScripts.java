package io.sandboxfactory.provider.support;

import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.api.support.Sandboxes;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * How a provider that runs commands through a remote exec (a container, a pod) makes a command's
 * processes killable and tells a missing working directory from the command's own output.
 *
 * <p>Each command gets a fresh token and runs under {@link #RUN_SCRIPT}, the wrapper: it changes to
 * the working directory (or writes {@link #missingDirectorySignal}, and nothing else, to stderr and
 * exits), writes its pid to {@link #pidFile} and runs the command line with a second {@code /bin/sh
 * -c}, then removes the pid file and exits with the command's status. An exec starts the wrapper as
 * the leader of a new process group (docker always; a kubernetes runtime usually), so that pid is
 * the group of everything the command starts. The wrapper's environment holds {@link
 * #markers}: {@link #MARKER_VARIABLE}{@code =<token>}, which every descendant inherits, and {@link
 * #HOST_VARIABLE}, the host process that started the command ({@link DeadHostReaper}).
 *
 * <p>{@link #killCommand} then kills, in a second exec, the process group named by the pid file (it
 * survives the wrapper, so children that scrubbed their environment die too) and every process
 * whose environment holds the marker (children that left the group with {@code setsid}, and
 * commands killed before the wrapper wrote its pid). Only a process that both leaves the group and
 * scrubs its environment escapes.
 */
public final class CommandScripts {

    /** Environment variable marking every process of one command. */
    public static final String MARKER_VARIABLE = "SANDBOX_FACTORY_EXEC";

    /** Environment variable naming the host process that started a command (see {@link HostProcess#encoded()}). */
    public static final String HOST_VARIABLE = "SANDBOX_FACTORY_HOST";

    /** How long the exec of {@link #killCommand} may take before the provider stops waiting for it. */
    public static final Duration KILL_WAIT = Duration.ofSeconds(10);

    /** How long a killed command's output may keep flowing (background children holding it) before the provider drops it. */
    public static final Duration DRAIN_AFTER_KILL = Duration.ofSeconds(5);

    /**
     * The wrapper; {@code $1} pid file, {@code $2} working directory, {@code $3} command line,
     * {@code $4} missing-directory signal. Docker's exec channel server runs it too, under {@code
     * setsid} so it leads its own process group as an exec does.
     */
    public static final String RUN_SCRIPT = String.join("\n",
            "cd -- \"$2\" 2>/dev/null || { printf '%s' \"$4\" >&2; exit 1; }",
            "echo $$ >\"$1\" 2>/dev/null",
            "/bin/sh -c \"$3\"",
            "status=$?",
            "rm -f \"$1\"",
            "exit $status");

    /**
     * The wrapper for an exec whose stdin the host holds open while the command runs (a Docker exec
     * attached with stdin): as {@link #RUN_SCRIPT}, plus a watchdog that reads that stdin and, when
     * it ends before the command did (the engine closes a dead client's stdin), kills every process
     * of the command: those marked with its token (but itself) and the wrapper's group (itself
     * last). The command's own stdin is {@code /dev/null}; once it exits the wrapper ends the
     * watchdog with SIGTERM, so what the command left running in the background stays, as it does
     * on the other paths; a watchdog already killing ignores SIGTERM, since the command's end it
     * sees may be its own doing. fd 9 carries stdin into the watchdog: an asynchronous list's own
     * stdin is {@code /dev/null}; {@code read} is a builtin, so the watchdog is one process.
     */
    public static final String WATCHED_RUN_SCRIPT = String.join("\n",
            "cd -- \"$2\" 2>/dev/null || { printf '%s' \"$4\" >&2; exit 1; }",
            "echo $$ >\"$1\" 2>/dev/null",
            "exec 9<&0 0</dev/null",
            "{ while IFS= read -r _sf_line; do :; done",
            "  trap '' TERM",
            "  read -r _sf_self _sf_rest </proc/self/stat",
            killMarked(MARKER_VARIABLE, "$" + MARKER_VARIABLE, "$_sf_self $$"),
            "  rm -f \"$1\"",
            "  kill -KILL -$$",
            "} <&9 >/dev/null 2>&1 9<&- &",
            "_sf_watchdog=$!",
            "exec 9<&-",
            "/bin/sh -c \"$3\"",
            "status=$?",
            "kill -TERM $_sf_watchdog 2>/dev/null",
            "rm -f \"$1\"",
            "exit $status");

    /**
     * The reader of {@link #runCommandWithEnvironmentOnStdin}; {@code $1} is {@link #RUN_SCRIPT},
     * {@code $2} to {@code $5} its parameters. It reads one line of single-quoted {@code NAME=value}
     * words (a newline in a value written as {@code '"$_sf_nl"'}), exports them with {@code eval}
     * (nothing inside single quotes is evaluated, so any value arrives verbatim; {@code read} and
     * {@code export} are builtins, so no value is ever an argument of a process) and becomes the
     * wrapper with {@code exec}: the same pid, so the wrapper still leads the exec's process group,
     * and a fresh shell, so a variable such as {@code IFS} does not change how the wrapper runs. A
     * stdin that ends before the line is complete (the host went away) runs nothing.
     */
    static final String ENVIRONMENT_READER = String.join("\n",
            "_sf_nl='",
            "'",
            "IFS= read -r _sf_env || { echo 'sandbox-factory: no environment arrived on stdin' >&2; exit 1; }",
            "[ -z \"$_sf_env\" ] || eval \"export $_sf_env\"",
            "exec /bin/sh -c \"$1\" sandbox-factory-exec \"$2\" \"$3\" \"$4\" \"$5\" </dev/null");

    private static final String KILL_SCRIPT = String.join("\n",
            "if [ -s \"$1\" ]; then kill -KILL -\"$(cat \"$1\")\" 2>/dev/null; rm -f \"$1\"; fi",
            killMarked(MARKER_VARIABLE, "$2"),
            "exit 0");

    private CommandScripts() {
    }

    /**
     * Shell lines that kill every process (and the group it leads) whose environment holds {@code
     * variable=value} ({@code value} is shell text, such as {@code "$2"}). Two sweeps: a process
     * forked while the first one ran is caught by the second.
     */
    public static String killMarked(String variable, String value) {
        return killMarked(variable, value, "");
    }

    /**
     * {@link #killMarked(String, String)} sparing the processes in {@code spared}, shell text that
     * expands to pids separated by spaces (such as {@code "$self $$"}); their groups are not killed either.
     */
    static String killMarked(String variable, String value, String spared) {
        return String.join("\n",
                "for sweep in 1 2; do",
                "  for e in /proc/[0-9]*/environ; do",
                "    p=${e#/proc/}; p=${p%/environ}",
                "    case \" " + spared + " \" in *\" $p \"*) continue;; esac",
                "    if grep -qsxzF \"" + variable + "=" + value + "\" \"$e\"; then",
                "      kill -KILL -\"$p\" 2>/dev/null; kill -KILL \"$p\" 2>/dev/null",
                "    fi",
                "  done",
                "done");
    }

    /** A fresh token naming one command's processes. */
    public static String newToken() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    /** Where the wrapper of command {@code token} records its pid. */
    public static String pidFile(String token) {
        return "/tmp/.sf-exec-" + token + ".pid";
    }

    /**
     * What the wrapper of command {@code token} writes to stderr, and nothing else, when its
     * working directory does not exist. Only the provider knows the token, so a command cannot
     * produce it.
     */
    public static String missingDirectorySignal(String token) {
        return "sandbox-factory:cwd-missing:" + token + "\n";
    }

    /** The variables that mark command {@code token}, started by {@code host}, and every process it starts. */
    public static Map<String, String> markers(String token, HostProcess host) {
        return Map.of(MARKER_VARIABLE, token, HOST_VARIABLE, host.encoded());
    }

    /**
     * The exec argv that runs {@code commandLine} in {@code cwd} under the wrapper, for an exec that
     * sets the environment itself (the environment must hold {@link #markers}).
     */
    public static List<String> runCommand(String token, String cwd, String commandLine) {
        return List.of("/bin/sh", "-c", RUN_SCRIPT, "sandbox-factory-exec", pidFile(token), cwd, commandLine,
                missingDirectorySignal(token));
    }

    /**
     * {@link #runCommand(String, String, String)} for an exec that takes no environment (a
     * kubernetes exec), with {@code env} (which must hold the {@link #markers}) kept off the exec's
     * command line, where every process of the pod ({@code /proc/<pid>/cmdline}) and the API
     * server's audit log of the exec's URL would show its values. Only the markers, which are no
     * secret, go into the argv through {@code env}, so the process is marked (and {@link
     * #killCommand} finds it) from its start; every other variable is on the exec's stdin, one line
     * that {@link #ENVIRONMENT_READER} reads and exports before it becomes the wrapper. The exec
     * must carry {@link StdinExec#stdin} to its stdin; the stdin may stay open (a websocket exec
     * cannot close it): the command itself gets {@code /dev/null}.
     */
    public static StdinExec runCommandWithEnvironmentOnStdin(String token, String cwd, String commandLine, Map<String, String> env) {
        List<String> argv = new ArrayList<>(List.of("env", "--"));
        StringBuilder line = new StringBuilder();
        env.forEach((name, value) -> {
            if (name.equals(MARKER_VARIABLE) || name.equals(HOST_VARIABLE)) {
                argv.add(name + "=" + value);
            } else {
                // A newline would end the line early: it leaves the single quotes for the reader's own newline.
                line.append(' ').append(Sandboxes.quote(name + "=" + value).replace("\n", "'\"$_sf_nl\"'"));
            }
        });
        if (!env.containsKey(MARKER_VARIABLE) || !env.containsKey(HOST_VARIABLE)) {
            throw new IllegalArgumentException("The environment of command " + token + " lacks its markers.");
        }
        argv.addAll(List.of("/bin/sh", "-c", ENVIRONMENT_READER, "sandbox-factory-exec", RUN_SCRIPT, pidFile(token), cwd,
                commandLine, missingDirectorySignal(token)));
        return new StdinExec(List.copyOf(argv), line.append('\n').toString().getBytes(StandardCharsets.UTF_8));
    }

    /**
     * An exec of {@link #runCommandWithEnvironmentOnStdin}: its argv, and the bytes to write to its
     * stdin at once (they hold variables' values: never log them).
     */
    public record StdinExec(List<String> argv, byte[] stdin) {
    }

    /**
     * {@link #runCommand(String, String, String)} under {@link #WATCHED_RUN_SCRIPT}, for an exec
     * whose stdin the host holds open until the command ends, so the command dies with the host.
     */
    public static List<String> runWatchedCommand(String token, String cwd, String commandLine) {
        return List.of("/bin/sh", "-c", WATCHED_RUN_SCRIPT, "sandbox-factory-exec", pidFile(token), cwd, commandLine,
                missingDirectorySignal(token));
    }

    /** The exec argv that kills every process of command {@code token}. */
    public static List<String> killCommand(String token) {
        return List.of("/bin/sh", "-c", KILL_SCRIPT, "sandbox-factory-kill", pidFile(token), token);
    }
}
