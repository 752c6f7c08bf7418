package io.sandboxfactory.core.session;

import io.sandboxfactory.api.RepositoryAccessSource;
import io.sandboxfactory.core.git.GitRefs;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One repository of a multi-repository {@link SessionEnvironment}. It is checked out at {@code
 * <root>/<repoDir>} on the session branch, created from {@code baseBranch} (default: the session's
 * base), and its setup commands run there, gated by the marker {@code repos/<repoDir>}.
 *
 * @param repository an {@code owner/name} slug, a clone URL or a local path
 * @param baseBranch the branch the session branch starts from in this repository
 * @param setupCommands run in the checkout once per sandbox
 * @param repositoryAccess mints access for this repository; default: the factory's source for it
 */
public record EnvironmentRepository(String repository, Optional<String> baseBranch, List<String> setupCommands,
                                    Optional<RepositoryAccessSource> repositoryAccess) {

    public EnvironmentRepository {
        RepositoryLocator.requireValid(repository);
        Objects.requireNonNull(baseBranch, "baseBranch").ifPresent(b -> GitRefs.requireValid(b, "Base branch of " + repository));
        setupCommands = List.copyOf(Objects.requireNonNull(setupCommands, "setupCommands"));
        Objects.requireNonNull(repositoryAccess, "repositoryAccess");
    }

    /** A repository with the session's base branch, no setup and default access. */
    public static EnvironmentRepository of(String repository, String... setupCommands) {
        return new EnvironmentRepository(repository, Optional.empty(), List.of(setupCommands), Optional.empty());
    }

    /** The directory the repository is checked out in, under the session root. */
    public String repoDir() {
        return RepositoryLocator.repoDir(repository);
    }

    /** Access tokens never show. */
    @Override
    public String toString() {
        return "EnvironmentRepository[" + repository + ", base=" + baseBranch.orElse("<session base>") + ", setup=" + setupCommands + "]";
    }
}
