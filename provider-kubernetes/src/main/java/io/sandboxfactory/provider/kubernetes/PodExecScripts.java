package io.sandboxfactory.provider.kubernetes;

import io.sandboxfactory.provider.support.CommandScripts;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The shell scripts that run a command killably inside the pod, passed inline in the exec argv.
 * The token, marker, pid file and kill script are {@link CommandScripts}', shared with the docker
 * provider; only the wrapper differs.
 *
 * <p>Kubernetes exec takes no environment, so the wrapper passes the command's variables with
 * {@code env NAME=VALUE... /bin/sh -c LINE}; {@link CommandScripts#MARKER_VARIABLE}{@code =<token>} is among
 * them, so every process of the command inherits it. {@link CommandScripts#killCommand} kills, in a second exec,
 * the process group the wrapper leads (when the runtime made it a group leader) and every process
 * whose environment holds the marker.
 */
final class PodExecScripts {

    static final String MARKER_VARIABLE = CommandScripts.MARKER_VARIABLE;

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

    private PodExecScripts() {
    }

    static String newToken() {
        return CommandScripts.newToken();
    }

    static List<String> runCommand(String token, String cwd, String commandLine, Map<String, String> env) {
        List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", RUN_SCRIPT, "sandbox-factory-exec", CommandScripts.pidFile(token), cwd,
                commandLine, CommandScripts.missingDirectorySignal(token)));
        env.forEach((name, value) -> argv.add(name + "=" + value));
        argv.add(MARKER_VARIABLE + "=" + token);
        return argv;
    }

    static List<String> killCommand(String token) {
        return CommandScripts.killCommand(token);
    }
}
