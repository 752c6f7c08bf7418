package io.sandboxfactory.api;

import java.util.List;
import java.util.regex.Pattern;

/** Static helpers of the contract: narrowing to {@link ExecutableSandbox} and shell quoting. */
public final class Sandboxes {

    private static final Pattern BARE = Pattern.compile("[A-Za-z0-9._\\-/=:@]+");

    private Sandboxes() {
    }

    /**
     * Narrows {@code sandbox} to an {@link ExecutableSandbox}, or fails with {@code Sandbox provider
     * '<p>' does not support executeCommand, which is required to run git and filesystem operations
     * in a session.}
     */
    public static ExecutableSandbox requireExec(WorkspaceSandbox sandbox) {
        if (sandbox instanceof MastraSandbox<?> mastra && !mastra.supportsExec()) {
            throw execUnsupported(sandbox.provider());
        }
        if (sandbox instanceof ExecutableSandbox executable) {
            return executable;
        }
        throw execUnsupported(sandbox.provider());
    }

    static SandboxException execUnsupported(String provider) {
        return new SandboxException(ErrorCode.EXEC_UNSUPPORTED, "Sandbox provider '" + provider
                + "' does not support executeCommand, which is required to run git and filesystem operations in a session.");
    }

    /**
     * Quotes one argument for a POSIX shell: bare when it matches {@code [A-Za-z0-9._\-/=:@]+},
     * else single-quoted with embedded quotes written as {@code '\''}.
     */
    public static String quote(String arg) {
        if (BARE.matcher(arg).matches()) {
            return arg;
        }
        return "'" + arg.replace("'", "'\\''") + "'";
    }

    /** {@code command} followed by each argument, quoted, separated by single spaces. */
    public static String join(String command, List<String> args) {
        StringBuilder line = new StringBuilder(command);
        for (String arg : args) {
            line.append(' ').append(quote(arg));
        }
        return line.toString();
    }
}
