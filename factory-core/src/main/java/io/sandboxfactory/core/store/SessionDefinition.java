package io.sandboxfactory.core.store;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a session was opened with, as the store keeps it.
 *
 * @param sessionId the logical id
 * @param repository the repository as named by the host ({@code owner/name}, a URL or a path); for
 *     an environment, its first repository
 * @param branch the session branch
 * @param baseBranch the branch the session branch was created from
 * @param setupCommands the setup commands, in order
 * @param teardownCommands the teardown commands, in order
 * @param provider the provider name the session runs on
 */
public record SessionDefinition(String sessionId, String repository, String branch, String baseBranch,
                                List<String> setupCommands, List<String> teardownCommands, Optional<String> provider) {

    public SessionDefinition {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(repository, "repository");
        Objects.requireNonNull(branch, "branch");
        Objects.requireNonNull(baseBranch, "baseBranch");
        setupCommands = List.copyOf(setupCommands);
        teardownCommands = List.copyOf(teardownCommands);
        Objects.requireNonNull(provider, "provider");
    }
}
