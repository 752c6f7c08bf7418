package io.sandboxfactory.api;

import io.sandboxfactory.api.error.StandardErrorCode;
import java.time.Duration;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What {@link MastraSandbox} hands a provider's {@code doExecute}: the joined, quoted command line
 * to run with {@code /bin/sh -c}, and the environment already merged from the sandbox overlay and
 * the per-call env. The provider puts its own base environment underneath {@link #env()}.
 *
 * @param commandLine shell command line, arguments already quoted
 * @param env overlay and per-call variables, per-call winning; provider base env goes below
 * @param cwd working directory inside the sandbox; empty means the sandbox default (its {@code
 *     workingDirectory()}). An absolute path is used as is; a relative one is resolved against the
 *     default directory. When the directory does not exist the command does not run: throw {@link
 *     #cwdMissing} (a {@link SandboxException} with code {@code CWD_MISSING}), not a result with a
 *     non-zero exit
 * @since 0.1.0
 */
public record CommandRequest(
        String commandLine,
        Map<String, String> env,
        Optional<String> cwd,
        Optional<Duration> timeout,
        Optional<Consumer<String>> onStdout,
        Optional<Consumer<String>> onStderr,
        long maxRetainedBytes) {

    public CommandRequest {
        Objects.requireNonNull(commandLine, "commandLine");
        env = Map.copyOf(env);
        Objects.requireNonNull(cwd, "cwd");
        Objects.requireNonNull(timeout, "timeout");
        Objects.requireNonNull(onStdout, "onStdout");
        Objects.requireNonNull(onStderr, "onStderr");
    }

    /**
     * The failure of a command whose working directory {@code directory} does not exist in the
     * sandbox {@code sandboxId}: code {@link StandardErrorCode#CWD_MISSING}, and the one sentence every provider
     * reports it with.
     */
    public static SandboxException cwdMissing(String directory, String sandboxId) {
        return new SandboxException(StandardErrorCode.CWD_MISSING, "Working directory " + directory + " does not exist in sandbox '" + sandboxId + "'.");
    }

    /** Shows env keys only: values may hold secrets. */
    @Override
    public String toString() {
        return "CommandRequest[commandLine=" + commandLine + ", envKeys=" + env.keySet() + ", cwd=" + cwd.orElse("<default>")
                + ", timeout=" + timeout.map(Duration::toString).orElse("none") + "]";
    }
}
