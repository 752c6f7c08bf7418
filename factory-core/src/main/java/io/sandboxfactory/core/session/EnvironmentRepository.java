package io.sandboxfactory.core.session;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.host.RepositoryAccessSource;
import io.sandboxfactory.core.internal.git.GitRefs;
import io.sandboxfactory.core.internal.config.InputText;
import io.sandboxfactory.core.internal.session.RepositoryLocator;
import io.sandboxfactory.core.internal.session.RepositorySyntax;
import io.sandboxfactory.core.internal.setup.SetupCommands;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One repository of a multi-repository {@link SessionEnvironment}. It is checked out at {@code
 * <root>/<dir>} on the session branch, created from {@code baseBranch} (default: the session's
 * base, else the repository's own default branch); its setup commands run there, gated by the
 * marker {@code repos/<dir>}, and its teardown commands run there when the session is retired.
 *
 * @param repository an {@code owner/name} slug, a clone URL or a local path
 * @param dir the checkout's directory under the session root; default: the repository's name
 * @param baseBranch the branch the session branch starts from in this repository
 * @param setupCommands run in the checkout once per sandbox
 * @param teardownCommands run in the checkout when the session is retired
 * @param repositoryAccess mints access for this repository; default: the factory's source for it
 */
public record EnvironmentRepository(String repository, Optional<String> dir, Optional<String> baseBranch, List<String> setupCommands,
                                    List<String> teardownCommands, Optional<RepositoryAccessSource> repositoryAccess) {

    private static final Pattern DIR = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9._-]{0,99}");

    public EnvironmentRepository {
        RepositorySyntax.requireValid(repository);
        Objects.requireNonNull(dir, "dir").ifPresent(d -> requireValidDir(d, repository));
        Objects.requireNonNull(baseBranch, "baseBranch").ifPresent(b -> GitRefs.requireValid(b, "Base branch of " + repository));
        setupCommands = SetupCommands.requireRunnable(List.copyOf(Objects.requireNonNull(setupCommands, "setupCommands")),
                "Setup command of " + repository);
        teardownCommands = SetupCommands.requireRunnable(List.copyOf(Objects.requireNonNull(teardownCommands, "teardownCommands")),
                "Teardown command of " + repository);
        Objects.requireNonNull(repositoryAccess, "repositoryAccess");
    }

    /** A repository with the session's base branch, the given setup and default access. */
    public static EnvironmentRepository of(String repository, String... setupCommands) {
        return new EnvironmentRepository(repository, Optional.empty(), Optional.empty(), List.of(setupCommands), List.of(), Optional.empty());
    }

    /** The directory the repository is checked out in, under the session root. */
    public String repoDir() {
        return dir.orElseGet(() -> RepositoryLocator.repoDir(repository));
    }

    private static void requireValidDir(String dir, String repository) {
        if (!DIR.matcher(dir).matches()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_PATH, "Directory '" + InputText.shown(dir) + "' of repository '" + repository
                    + "' is invalid; it must be one directory name of 1-100 letters, digits, '.', '_' or '-', not starting with '.' or '-'.");
        }
    }

    /** Access tokens never show. */
    @Override
    public String toString() {
        return "EnvironmentRepository[" + repository + ", dir=" + repoDir() + ", base=" + baseBranch.orElse("<session base>")
                + ", setup=" + setupCommands + ", teardown=" + teardownCommands + "]";
    }
}
