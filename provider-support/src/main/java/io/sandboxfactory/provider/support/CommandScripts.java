package io.sandboxfactory.provider.support;

import java.util.List;
import java.util.UUID;

/**
 * How a provider that runs commands through a remote exec (a container, a pod) makes a command's
 * processes killable and tells a missing working directory from the command's own output. Each
 * command gets a fresh token: its wrapper records its pid in {@link #pidFile} and puts {@link
 * #MARKER_VARIABLE}{@code =<token>} into the environment every descendant inherits, and writes
 * {@link #missingDirectorySignal} (and nothing else) to stderr when it cannot enter the working
 * directory. {@link #killCommand} then kills, in a second exec, the process group named by the pid
 * file and every process whose environment holds the marker; only a process that both leaves the
 * group and scrubs its environment escapes.
 */
public final class CommandScripts {

    /** Environment variable marking every process of one command. */
    public static final String MARKER_VARIABLE = "SANDBOX_FACTORY_EXEC";

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

    /** The exec argv that kills every process of command {@code token}. */
    public static List<String> killCommand(String token) {
        return List.of("/bin/sh", "-c", KILL_SCRIPT, "sandbox-factory-kill", pidFile(token), token);
    }
}
