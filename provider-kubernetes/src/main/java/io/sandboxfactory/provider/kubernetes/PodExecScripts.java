package io.sandboxfactory.provider.kubernetes;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * The shell scripts that run a command killably inside the pod, passed inline in the exec argv.
 * The scheme is the docker provider's ({@code provider.docker.ExecWrapper}); it is copied, not
 * shared, because the providers have no common module besides factory-api, which stays free of
 * provider code.
 *
 * <p>Kubernetes exec takes no environment, so the wrapper passes the command's variables with
 * {@code env NAME=VALUE... /bin/sh -c LINE}; {@link #MARKER_VARIABLE}{@code =<token>} is among
 * them, so every process of the command inherits it. {@link #killCommand} kills, in a second exec,
 * the process group the wrapper leads (when the runtime made it a group leader) and every process
 * whose environment holds the marker.
 */
final class PodExecScripts {

    /** Environment variable marking every process of one command. */
    static final String MARKER_VARIABLE = "SANDBOX_FACTORY_EXEC";

    /**
     * {@code $1} pid file, {@code $2} working directory, {@code $3} command line, {@code $4}
     * missing-directory signal, then {@code NAME=VALUE} assignments.
     */
    static final String RUN_SCRIPT = String.join("\n",
            "pidfile=$1 dir=$2 line=$3 signal=$4",
            "shift 4",
            "cd -- \"$dir\" 2>/dev/null || { printf '%s' \"$signal\" >&2; exit 1; }",
            "echo $$ >\"$pidfile\" 2>/dev/null",
            "env \"$@\" /bin/sh -c \"$line\"",
            "status=$?",
            "rm -f \"$pidfile\"",
            "exit $status");

    private static final String KILL_SCRIPT = String.join("\n",
            "if [ -s \"$1\" ]; then kill -KILL -\"$(cat \"$1\")\" 2>/dev/null; rm -f \"$1\"; fi",
            "for sweep in 1 2; do",
            "  for e in /proc/[0-9]*/environ; do",
            "    if grep -qsxzF \"" + MARKER_VARIABLE + "=$2\" \"$e\"; then",
            "      p=${e#/proc/}; p=${p%/environ}",
            "      kill -KILL -\"$p\" 2>/dev/null; kill -KILL \"$p\" 2>/dev/null",
            "    fi",
            "  done",
            "done",
            "exit 0");

    private PodExecScripts() {
    }

    static String newToken() {
        return UUID.randomUUID().toString().replace("-", "");
    }

    static String pidFile(String token) {
        return "/tmp/.sf-exec-" + token + ".pid";
    }

    /** What the wrapper writes to stderr, and nothing else, when its directory is missing; only the provider knows the token. */
    static String missingDirectorySignal(String token) {
        return "sandbox-factory:cwd-missing:" + token + "\n";
    }

    static List<String> runCommand(String token, String cwd, String commandLine, Map<String, String> env) {
        List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", RUN_SCRIPT, "sandbox-factory-exec", pidFile(token), cwd,
                commandLine, missingDirectorySignal(token)));
        env.forEach((name, value) -> argv.add(name + "=" + value));
        argv.add(MARKER_VARIABLE + "=" + token);
        return argv;
    }

    static List<String> killCommand(String token) {
        return List.of("/bin/sh", "-c", KILL_SCRIPT, "sandbox-factory-kill", pidFile(token), token);
    }
}
