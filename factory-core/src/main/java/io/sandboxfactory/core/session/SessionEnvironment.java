package io.sandboxfactory.core.session;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Several repositories checked out side by side under one session root, in position order (the
 * first is the session's own repository), plus a workspace setup run in the root after every
 * repository's setup, gated by the {@code workspace-setup} marker.
 *
 * @param repositories at least one; their checkout directories must differ
 * @param workspaceSetupCommands run in the session root
 */
public record SessionEnvironment(List<EnvironmentRepository> repositories, List<String> workspaceSetupCommands) {

    public SessionEnvironment {
        repositories = List.copyOf(Objects.requireNonNull(repositories, "repositories"));
        workspaceSetupCommands = List.copyOf(Objects.requireNonNull(workspaceSetupCommands, "workspaceSetupCommands"));
        if (repositories.isEmpty()) {
            throw new IllegalArgumentException("A session environment needs at least one repository.");
        }
        Map<String, String> byDir = new HashMap<>();
        for (EnvironmentRepository repository : repositories) {
            String previous = byDir.putIfAbsent(repository.repoDir(), repository.repository());
            if (previous != null) {
                throw new IllegalArgumentException("Repositories '" + previous + "' and '" + repository.repository()
                        + "' would both be checked out in directory '" + repository.repoDir() + "'; each repository of an environment needs its own directory name.");
            }
        }
    }

    public static SessionEnvironment of(List<EnvironmentRepository> repositories, String... workspaceSetupCommands) {
        return new SessionEnvironment(repositories, List.of(workspaceSetupCommands));
    }
}
