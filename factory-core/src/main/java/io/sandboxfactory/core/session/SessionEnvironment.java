package io.sandboxfactory.core.session;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.internal.setup.SetupCommands;
import io.sandboxfactory.core.internal.setup.SetupSecrets;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Several repositories checked out side by side under one session root, in position order (the
 * first is the primary: commands run in its checkout by default), plus a workspace setup run in the
 * root after every repository's setup, gated by the {@code workspace-setup} marker, and a workspace
 * teardown run in the root after every repository's teardown.
 *
 * @param repositories at least one; their checkout directories must differ
 * @param workspaceSetupCommands run in the session root
 * @param workspaceTeardownCommands run in the session root when the session is retired
 * @param setupSecrets names of host variables every setup of the environment gets in its
 *     environment, and no later command (see {@link SessionSpec#setupSecrets()})
 */
public record SessionEnvironment(List<EnvironmentRepository> repositories, List<String> workspaceSetupCommands,
                                 List<String> workspaceTeardownCommands, List<String> setupSecrets) {

    public SessionEnvironment {
        repositories = List.copyOf(Objects.requireNonNull(repositories, "repositories"));
        workspaceSetupCommands = SetupCommands.requireRunnable(
                List.copyOf(Objects.requireNonNull(workspaceSetupCommands, "workspaceSetupCommands")), "Workspace setup command");
        workspaceTeardownCommands = SetupCommands.requireRunnable(
                List.copyOf(Objects.requireNonNull(workspaceTeardownCommands, "workspaceTeardownCommands")), "Workspace teardown command");
        setupSecrets = SetupSecrets.requireValidNames(Objects.requireNonNullElse(setupSecrets, List.of()));
        if (repositories.isEmpty()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "A session environment needs at least one repository; it has none.");
        }
        Map<String, String> byDir = new HashMap<>();
        for (EnvironmentRepository repository : repositories) {
            String previous = byDir.putIfAbsent(repository.repoDir(), repository.repository());
            if (previous != null) {
                throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Repositories '" + previous + "' and '" + repository.repository()
                        + "' would both be checked out in directory '" + repository.repoDir()
                        + "'; each repository of an environment needs its own directory (set 'dir').");
            }
        }
    }

    public static SessionEnvironment of(List<EnvironmentRepository> repositories, String... workspaceSetupCommands) {
        return new SessionEnvironment(repositories, List.of(workspaceSetupCommands), List.of(), List.of());
    }
}
