package io.sandboxfactory.store.api;

import io.sandboxfactory.api.support.HostProcess;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a session was opened with, as the store keeps it.
 *
 * @param sessionId the logical id
 * @param repository the repository as named by the host ({@code owner/name}, a URL or a path); for
 *     an environment, its first repository
 * @param branch the session branch
 * @param baseBranch the branch the session branch was created from; empty until a start resolved
 *     the remote's default branch for a session that named none
 * @param setupCommands the setup commands, in order
 * @param teardownCommands the teardown commands, in order
 * @param provider the provider name the session runs on
 * @param labels {@code key=value} pairs to find the session by; registering adds them to those stored
 * @param environment every repository and the workspace commands of a multi-repository session;
 *     then {@code repository} is its primary and {@code setupCommands}/{@code teardownCommands} are empty
 * @param ephemeralOwner for the ephemeral session of a {@code run}: the process that destroys it once
 *     its command ended, so {@code sweep} may remove it when that process is provably gone; empty for
 *     every other session (an open without an owner clears it: the session is then someone's to keep)
 * @param setupSecrets the names (never the values) of the host variables an open gave the setup
 *     commands ({@code --setup-secret}, an environment's {@code setupSecrets}), so that a setup run
 *     again in another process reads the same ones from its host; empty when no open named any (the
 *     configured names apply). A register without names keeps those stored.
 *
 * @since 0.1.0
 */
public record SessionDefinition(String sessionId, String repository, String branch, Optional<String> baseBranch,
                                List<String> setupCommands, List<String> teardownCommands, Optional<String> provider,
                                Map<String, String> labels, Optional<EnvironmentDefinition> environment,
                                Optional<HostProcess> ephemeralOwner, Optional<List<String>> setupSecrets) {

    public SessionDefinition {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(repository, "repository");
        Objects.requireNonNull(branch, "branch");
        Objects.requireNonNull(baseBranch, "baseBranch");
        setupCommands = List.copyOf(setupCommands);
        teardownCommands = List.copyOf(teardownCommands);
        Objects.requireNonNull(provider, "provider");
        labels = Map.copyOf(Objects.requireNonNullElse(labels, Map.of()));
        environment = Objects.requireNonNullElse(environment, Optional.empty());
        ephemeralOwner = Objects.requireNonNullElse(ephemeralOwner, Optional.empty());
        setupSecrets = Objects.requireNonNullElse(setupSecrets, Optional.<List<String>>empty()).map(List::copyOf);
    }

    /**
     * A builder of the definition of {@code sessionId}: every other component starts empty (no base
     * branch, setup or teardown commands, provider, labels, environment, owner or setup secrets).
     */
    public static Builder builder(String sessionId, String repository, String branch) {
        return new Builder(sessionId, repository, branch);
    }

    /**
     * Builder for {@link SessionDefinition}: one setter per optional component, so a new component
     * grows the builder rather than the record's constructors. {@link #build()} validates.
     *
     * @since 0.1.0
     */
    public static final class Builder {
        private final String sessionId;
        private final String repository;
        private final String branch;
        private Optional<String> baseBranch = Optional.empty();
        private List<String> setupCommands = List.of();
        private List<String> teardownCommands = List.of();
        private Optional<String> provider = Optional.empty();
        private Map<String, String> labels = Map.of();
        private Optional<EnvironmentDefinition> environment = Optional.empty();
        private Optional<HostProcess> ephemeralOwner = Optional.empty();
        private Optional<List<String>> setupSecrets = Optional.empty();

        private Builder(String sessionId, String repository, String branch) {
            this.sessionId = sessionId;
            this.repository = repository;
            this.branch = branch;
        }

        public Builder baseBranch(String baseBranch) {
            this.baseBranch = Optional.of(baseBranch);
            return this;
        }

        public Builder setupCommands(List<String> setupCommands) {
            this.setupCommands = setupCommands;
            return this;
        }

        public Builder teardownCommands(List<String> teardownCommands) {
            this.teardownCommands = teardownCommands;
            return this;
        }

        public Builder provider(String provider) {
            this.provider = Optional.of(provider);
            return this;
        }

        public Builder labels(Map<String, String> labels) {
            this.labels = labels;
            return this;
        }

        public Builder environment(EnvironmentDefinition environment) {
            this.environment = Optional.of(environment);
            return this;
        }

        public Builder ephemeralOwner(HostProcess ephemeralOwner) {
            this.ephemeralOwner = Optional.of(ephemeralOwner);
            return this;
        }

        public Builder setupSecrets(List<String> setupSecrets) {
            this.setupSecrets = Optional.of(setupSecrets);
            return this;
        }

        public SessionDefinition build() {
            return new SessionDefinition(sessionId, repository, branch, baseBranch, setupCommands, teardownCommands, provider, labels,
                    environment, ephemeralOwner, setupSecrets);
        }
    }
}
