package io.sandboxfactory.store.api;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The repositories and workspace commands of a multi-repository session, as the store keeps them,
 * so that any later process rebuilds exactly the environment that was opened.
 *
 * @param repositories in position order; the first is the primary
 * @param workspaceSetup run in the session root after every repository's setup
 * @param workspaceTeardown run in the session root after every repository's teardown
 *
 * @since 0.1.0
 */
public record EnvironmentDefinition(List<RepositoryDefinition> repositories, List<String> workspaceSetup, List<String> workspaceTeardown) {

    /**
     * One repository of the environment.
     *
     * @param repository as the host named it (slug, URL or path)
     * @param dir its checkout directory under the session root
     * @param baseBranch its own base, when one was given
     * @param setupCommands run in its checkout
     * @param teardownCommands run in its checkout on retirement
     */
    public record RepositoryDefinition(String repository, String dir, Optional<String> baseBranch, List<String> setupCommands,
                                       List<String> teardownCommands) {
        public RepositoryDefinition {
            Objects.requireNonNull(repository, "repository");
            Objects.requireNonNull(dir, "dir");
            Objects.requireNonNull(baseBranch, "baseBranch");
            setupCommands = List.copyOf(setupCommands);
            teardownCommands = List.copyOf(teardownCommands);
        }
    }

    public EnvironmentDefinition {
        repositories = List.copyOf(repositories);
        workspaceSetup = List.copyOf(workspaceSetup);
        workspaceTeardown = List.copyOf(workspaceTeardown);
        if (repositories.isEmpty()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "A stored environment needs at least one repository.");
        }
    }
}
