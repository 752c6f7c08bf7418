package io.sandboxfactory.provider.support;

import io.sandboxfactory.api.CommandRequest;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.HostProcess;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What every command of one remote sandbox starts from, and how a request adds to it: the session
 * (for messages), the provider's base environment, the working directory of commands that name
 * none, and the host process that starts them (recorded in the {@link CommandScripts#markers}).
 *
 * @param sessionId the session whose sandbox runs the commands
 * @param baseEnv the provider's variables, under every command's own
 * @param workingDirectory where a command runs that names no {@code cwd}, and what a relative one is taken from
 * @param host this process, as the commands it starts record it
 */
public record CommandDefaults(String sessionId, Map<String, String> baseEnv, String workingDirectory, HostProcess host) {

    /** How a provider checks one of a command's own variables (such as {@code EnvironmentVariables::requireValid}). */
    @FunctionalInterface
    public interface VariableCheck {
        void check(String name, String value, String where);
    }

    public CommandDefaults {
        Objects.requireNonNull(sessionId, "sessionId");
        baseEnv = Map.copyOf(baseEnv);
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        Objects.requireNonNull(host, "host");
    }

    /** Where {@code request} runs: its {@code cwd}, a relative one under {@link #workingDirectory}, as the local provider does. */
    public String cwd(CommandRequest request) {
        return request.cwd().map(this::resolve).orElse(workingDirectory);
    }

    /** The variables of command {@code token}: the base environment, then {@code requestEnv} (each passing {@code check}), then the markers. */
    public Map<String, String> environment(Map<String, String> requestEnv, String token, VariableCheck check) {
        Map<String, String> merged = new LinkedHashMap<>(baseEnv);
        requestEnv.forEach((name, value) -> {
            check.check(name, value, "Command environment");
            merged.put(name, value);
        });
        merged.putAll(CommandScripts.markers(token, host));
        return merged;
    }

    private String resolve(String cwd) {
        if (cwd.isEmpty() || cwd.indexOf('\0') >= 0) {
            throw new InvalidInputException(StandardErrorCode.INVALID_PATH, "Working directory '" + cwd + "' is invalid; it must be a non-empty path"
                    + " without NUL characters.");
        }
        return cwd.startsWith("/") ? cwd : workingDirectory + "/" + cwd;
    }
}
