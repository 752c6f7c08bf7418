package io.sandboxfactory.api;

import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.api.host.RepositoryAccessSource;
import io.sandboxfactory.api.support.SessionIds;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything a {@link FactorySandbox} gets to create the sandbox of one session.
 *
 * @param sessionId the logical id; the same id must always reach the same physical sandbox. It
 *     obeys {@link SessionIds} (1–200 chars, at most 255 UTF-8 bytes, no {@code /} or {@code \},
 *     no control or invisible characters, no leading {@code .} or {@code -}, no outer whitespace)
 *     and may hold anything else, spaces and quotes included
 * @param sandboxId the provider's physical id persisted from an earlier start, for deterministic reattach
 * @param repoFullName the repository, {@code owner/name} or a URL/path as the session named it
 * @param setupCommand the session's setup commands joined with {@code \n}, for providers that pre-build
 * @param repositoryAccess mints credentials per call; empty for anonymous access
 * @param resources requested limits
 * @param workingDirectory a working directory inside the sandbox requested by the host
 * @param template the template a new physical sandbox is made from (providers declaring {@link
 *     SandboxCapability#TEMPLATES}); ignored when the session's sandbox already exists
 * @param hostDirectories absolute host directories a new physical sandbox must see read-only at the
 *     same paths (providers declaring {@link SandboxCapability#HOST_DIRECTORIES}); ignored when the
 *     session's sandbox already exists
 * @since 0.1.0
 */
public record FactorySandboxContext(
        String sessionId,
        Optional<String> sandboxId,
        String repoFullName,
        Optional<String> setupCommand,
        Optional<RepositoryAccessSource> repositoryAccess,
        SandboxResources resources,
        Optional<String> workingDirectory,
        Optional<SandboxTemplate> template,
        List<String> hostDirectories) {

    public FactorySandboxContext {
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(sandboxId, "sandboxId");
        repoFullName = Objects.requireNonNullElse(repoFullName, "");
        Objects.requireNonNull(setupCommand, "setupCommand");
        Objects.requireNonNull(repositoryAccess, "repositoryAccess");
        resources = Objects.requireNonNullElse(resources, SandboxResources.none());
        Objects.requireNonNull(workingDirectory, "workingDirectory");
        template = Objects.requireNonNullElse(template, Optional.empty());
        hostDirectories = List.copyOf(Objects.requireNonNullElse(hostDirectories, List.of()));
        for (String directory : hostDirectories) {
            if (!directory.startsWith("/") || directory.indexOf(':') >= 0 || directory.chars().anyMatch(Character::isISOControl)) {
                throw new IllegalArgumentException("Host directory '" + directory + "' of session '" + sessionId
                        + "' is invalid; it must be an absolute path without ':' or control characters.");
            }
        }
    }

    /** A context for {@code sessionId} with everything else empty; refine with {@link #builder(String)}. */
    public static FactorySandboxContext of(String sessionId) {
        return builder(sessionId).build();
    }

    public static Builder builder(String sessionId) {
        return new Builder(sessionId);
    }

    /** Builder for {@link FactorySandboxContext}. */
    public static final class Builder {
        private final String sessionId;
        private String sandboxId;
        private String repoFullName = "";
        private String setupCommand;
        private RepositoryAccessSource repositoryAccess;
        private SandboxResources resources = SandboxResources.none();
        private String workingDirectory;
        private SandboxTemplate template;
        private List<String> hostDirectories = List.of();

        private Builder(String sessionId) {
            this.sessionId = Objects.requireNonNull(sessionId, "sessionId");
        }

        public Builder sandboxId(String sandboxId) {
            this.sandboxId = sandboxId;
            return this;
        }

        public Builder repoFullName(String repoFullName) {
            this.repoFullName = repoFullName;
            return this;
        }

        public Builder setupCommand(String setupCommand) {
            this.setupCommand = setupCommand;
            return this;
        }

        public Builder repositoryAccess(RepositoryAccessSource repositoryAccess) {
            this.repositoryAccess = repositoryAccess;
            return this;
        }

        public Builder resources(SandboxResources resources) {
            this.resources = resources;
            return this;
        }

        public Builder workingDirectory(String workingDirectory) {
            this.workingDirectory = workingDirectory;
            return this;
        }

        public Builder template(SandboxTemplate template) {
            this.template = template;
            return this;
        }

        public Builder hostDirectories(List<String> hostDirectories) {
            this.hostDirectories = hostDirectories;
            return this;
        }

        public FactorySandboxContext build() {
            return new FactorySandboxContext(sessionId, Optional.ofNullable(sandboxId), repoFullName,
                    Optional.ofNullable(setupCommand), Optional.ofNullable(repositoryAccess), resources,
                    Optional.ofNullable(workingDirectory), Optional.ofNullable(template), hostDirectories);
        }
    }
}
