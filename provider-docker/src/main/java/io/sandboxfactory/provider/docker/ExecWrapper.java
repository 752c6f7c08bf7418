package io.sandboxfactory.provider.docker;

import io.sandboxfactory.provider.support.CommandScripts;

import java.util.List;

/**
 * The wrapper that makes a command killable inside the container, passed inline in the exec
 * request so it costs no extra round trip; the token, marker, pid file and kill script are {@link
 * CommandScripts}', shared with the kubernetes provider.
 *
 * <p>Every command runs as {@code /bin/sh -c RUN ...}: the wrapper changes to the working
 * directory (or writes {@link CommandScripts#missingDirectorySignal} and exits), writes its pid to {@link
 * #pidFile} and runs the command line with a second {@code /bin/sh -c}, then removes the pid file
 * and exits with the command's status. Docker starts each exec as the leader of a new session and
 * process group, so that pid is the group of everything the command starts. The exec also carries
 * {@link CommandScripts#MARKER_VARIABLE}{@code =<token>} in its environment, which every descendant inherits.
 *
 * <p>{@link CommandScripts#killCommand} kills, in a second exec, the process group named by the pid file (it
 * survives the wrapper, so children that scrubbed their environment die too) and every process whose
 * environment holds the marker (children that left the group with {@code setsid}, and commands
 * killed before the wrapper wrote its pid). Only a process that both leaves the group and scrubs its
 * environment escapes.
 */
final class ExecWrapper {

    static final String MARKER_VARIABLE = CommandScripts.MARKER_VARIABLE;

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

    private ExecWrapper() {
    }

    static String newToken() {
        return CommandScripts.newToken();
    }

    static String pidFile(String token) {
        return CommandScripts.pidFile(token);
    }

    static String missingDirectorySignal(String token) {
        return CommandScripts.missingDirectorySignal(token);
    }

    /** The exec argv that runs {@code commandLine} in {@code cwd} under the wrapper. */
    static List<String> runCommand(String token, String cwd, String commandLine) {
        return List.of("/bin/sh", "-c", RUN_SCRIPT, "sandbox-factory-exec", pidFile(token), cwd, commandLine,
                missingDirectorySignal(token));
    }

    static List<String> killCommand(String token) {
        return CommandScripts.killCommand(token);
    }
}
