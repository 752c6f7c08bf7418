package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.capability.AttachableSandbox;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A person's shell in a session's container ({@link DockerSandbox#attach}): {@code docker exec} of
 * {@code sh} in the directory, with a TTY when the caller has a terminal. The variables of the
 * session's commands (the repository token among them) reach it by name ({@code -e NAME}, the value taken
 * from the docker client's environment), never on the command line. The client reaches the engine
 * this provider does: {@code DOCKER_HOST} is the configured host unless the provider honours the
 * environment's settings, as the client then does too.
 */
final class DockerShell {

    private DockerShell() {
    }

    /**
     * @param container the container's id
     * @param variables the variables of the session's commands
     * @param engine the engine the client must use; empty: whatever the caller's environment says
     */
    static AttachableSandbox.Attach attach(String container, AttachableSandbox.Request request, Map<String, String> variables,
                                           Optional<String> engine) {
        List<String> command = new ArrayList<>(List.of("docker", "exec", "-i"));
        if (request.terminal()) {
            command.add("-t");
        }
        command.addAll(List.of("-w", request.directory()));
        for (String name : variables.keySet()) {
            command.addAll(List.of("-e", name));
        }
        command.addAll(List.of(container, "sh"));
        Map<String, String> environment = new HashMap<>(request.callerEnvironment());
        environment.putAll(variables);
        engine.ifPresent(host -> environment.put("DOCKER_HOST", host));
        return new AttachableSandbox.Attach(command, environment, Optional.empty());
    }
}
