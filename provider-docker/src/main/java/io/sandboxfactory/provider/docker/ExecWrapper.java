package io.sandboxfactory.provider.docker;

import java.util.List;
import java.util.UUID;

/**
 * The shell scripts that make a command killable inside the container, passed inline in the exec
 * request so they cost no extra round trip.
 *
 * <p>Every command runs as {@code /bin/sh -c RUN ...}: the wrapper changes to the working
 * directory (or writes {@link #missingDirectorySignal} and exits), writes its pid to {@link
 * #pidFile} and runs the command line with a second {@code /bin/sh -c}, then removes the pid file
 * and exits with the command's status. Docker starts each exec as the leader of a new session and
 * process group, so that pid is the group of everything the command starts. The exec also carries
 * {@link #MARKER_VARIABLE}{@code =<token>} in its environment, which every descendant inherits.
 *
 * <p>{@link #killCommand} kills, in a second exec, the process group named by the pid file (it
 * survives the wrapper, so children that scrubbed their environment die too) and every process whose
 * environment holds the marker (children that left the group with {@code setsid}, and commands
 * killed before the wrapper wrote its pid). Only a process that both leaves the group and scrubs its
 * environment escapes.
 */
final class ExecWrapper {

    /** Environment variable marking every process of one command. */
    static final String MARKER_VARIABLE = "SANDBOX_FACTORY_EXEC";

    /**
     * The wrapper; {@code $1} pid file, {@code $2} working directory, {@code $3} command line,
     * {@code $4} missing-directory signal. The {@link ExecChannel} server runs it too, under {@code
     * setsid} so it leads its own process group as an exec does.
     */
    static final String RUN_SCRIPT = String.join("\n",
            "cd -- \"$2\" 2>/dev/null || { printf '%s' \"$4\" >&2; exit 1; }",
            "echo $$ >\"$1\" 2>/dev/null",
            "/bin/sh -c \"$3\"",
            "status=$?",
            "rm -f \"$1\"",
            "exit $status");

    private static final String KILL_SCRIPT = String.join("\n",
            "if [ -s \"$1\" ]; then kill -KILL -\"$(cat \"$1\")\" 2>/dev/null; rm -f \"$1\"; fi",
            killMarked(MARKER_VARIABLE, "$2"),
            "exit 0");

    /**
     * Shell lines that kill every process (and the group it leads) whose environment holds {@code
     * variable=value} ({@code value} is shell text, such as {@code "$2"}). Two sweeps: a process
     * forked while the first one ran is caught by the second.
     */
    static String killMarked(String variable, String value) {
        return String.join("\n",
                "for sweep in 1 2; do",
                "  for e in /proc/[0-9]*/environ; do",
                "    if grep -qsxzF \"" + variable + "=" + value + "\" \"$e\"; then",
                "      p=${e#/proc/}; p=${p%/environ}",
                "      kill -KILL -\"$p\" 2>/dev/null; kill -KILL \"$p\" 2>/dev/null",
                "    fi",
                "  done",
                "done");
    }

    private ExecWrapper() {
    }

    /** A fresh token naming one command's processes. */
    static String newToken() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    /** Where the wrapper of command {@code token} records its pid. */
    static String pidFile(String token) {
        return "/tmp/.sf-exec-" + token + ".pid";
    }

    /**
     * What the wrapper of command {@code token} writes to stderr, and nothing else, when its
     * working directory does not exist. Only the provider knows the token, so a command cannot
     * produce it.
     */
    static String missingDirectorySignal(String token) {
        return "sandbox-factory:cwd-missing:" + token + "\n";
    }

    /** The exec argv that runs {@code commandLine} in {@code cwd} under the wrapper. */
    static List<String> runCommand(String token, String cwd, String commandLine) {
        return List.of("/bin/sh", "-c", RUN_SCRIPT, "sandbox-factory-exec", pidFile(token), cwd, commandLine,
                missingDirectorySignal(token));
    }

    /** The exec argv that kills every process of command {@code token}. */
    static List<String> killCommand(String token) {
        return List.of("/bin/sh", "-c", KILL_SCRIPT, "sandbox-factory-kill", pidFile(token), token);
    }
}
