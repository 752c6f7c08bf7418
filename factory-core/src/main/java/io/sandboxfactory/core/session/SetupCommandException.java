package io.sandboxfactory.core.session;

import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.StandardErrorCode;

import java.util.List;

/**
 * The project's setup command failed. The session records the exact command, so later starts skip
 * it (with a warning) until it is edited or the session is retired; the sandbox itself stays
 * usable. The message is {@code Setup command failed (exit N): <last 1800 characters of stderr,
 * or stdout when stderr is blank>. The sandbox stays usable: ...}.
 */
public class SetupCommandException extends SandboxException {
    private static final long serialVersionUID = 1L;

    /** How much of the command's output the message keeps. */
    public static final int OUTPUT_TAIL = 1800;

    private final int exitCode;

    public SetupCommandException(int exitCode, String stdout, String stderr) {
        super(StandardErrorCode.SETUP_FAILED, "Setup command failed (exit " + exitCode + "): " + tail(stdout, stderr)
                + ". The sandbox stays usable: this setup command is skipped for the rest of the session"
                + " — retry your command, then fix the setup command or run it manually.");
        this.exitCode = exitCode;
    }

    /**
     * The setup of some repositories of an environment failed: names them, then says what the
     * first failure said; the other repositories' setup ran.
     */
    public SetupCommandException(List<String> failedRepositories, SetupCommandException first) {
        super(StandardErrorCode.SETUP_FAILED, "The setup of " + String.join(", ", failedRepositories.stream().map(d -> "'" + d + "'").toList())
                + " failed (the other repositories' setup ran); " + first.getMessage(), first);
        this.exitCode = first.exitCode;
    }

    /** The setup command's exit code (124 when it timed out). */
    public int exitCode() {
        return exitCode;
    }

    static String tail(String stdout, String stderr) {
        String output = (stderr == null || stderr.isBlank() ? (stdout == null ? "" : stdout) : stderr).strip();
        if (output.isEmpty()) {
            return "(no output)";
        }
        return output.length() <= OUTPUT_TAIL ? output : output.substring(output.length() - OUTPUT_TAIL);
    }
}
