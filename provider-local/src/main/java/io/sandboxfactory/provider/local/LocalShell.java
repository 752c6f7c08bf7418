package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.capability.AttachableSandbox;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.support.Sandboxes;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * A person's shell in a local session ({@link LocalSandbox#attach}): the caller's {@code $SHELL}
 * (else {@code sh}) in the checkout, with exactly the environment a session command sees, where
 * the session's commands run: inside its boundary when the session is isolated, else on this host.
 *
 * <p>Inside the boundary the caller's terminal cannot be the shell's: its session and process
 * groups live outside the pid namespace (job control fails: "Cannot set tty process group"), and
 * a controlling terminal shared with the sandbox would let it push input into the caller's. So on
 * a terminal the shell gets a terminal of its own inside, relayed by {@code script(1)}.
 *
 * @param interactive how a program is put where the session's commands run (the boundary's command line, or itself)
 */
record LocalShell(UnaryOperator<List<String>> interactive) {

    /** Variables of the captured environment that describe the capturing shell, not the session. */
    private static final Set<String> OF_THE_CAPTURE = Set.of("PWD", "OLDPWD", "SHLVL", "_");

    /** The command line of the shell in {@code directory}; started in the boundary's directory, it changes there itself. */
    List<String> command(AttachableSandbox.Request request) {
        String program = request.callerEnvironment().getOrDefault("SHELL", "");
        List<String> inDirectory = List.of("/bin/sh", "-c", "cd -- \"$0\" && exec \"$1\"", request.directory(),
                program.isBlank() ? "sh" : program);
        return interactive.apply(request.terminal()
                ? List.of("script", "-qec", String.join(" ", inDirectory.stream().map(Sandboxes::quote).toList()), "/dev/null")
                : inDirectory);
    }

    /** What {@code env -0} printed in the session, less what describes the shell that ran it. */
    static Map<String, String> environment(CommandResult env, String sessionId) {
        if (env.exitCode() != 0) {
            throw new IllegalStateException("Could not read the environment of session '" + sessionId + "': exit " + env.exitCode() + ".");
        }
        Map<String, String> variables = new HashMap<>();
        for (String entry : env.stdout().split("\0")) {
            int eq = entry.indexOf('=');
            if (eq > 0 && !OF_THE_CAPTURE.contains(entry.substring(0, eq))) {
                variables.put(entry.substring(0, eq), entry.substring(eq + 1));
            }
        }
        return variables;
    }
}
