package io.sandboxfactory.core.template;

import io.sandboxfactory.core.internal.git.GitRefs;
import io.sandboxfactory.core.internal.session.RepositorySyntax;
import io.sandboxfactory.core.internal.setup.SetupCommands;
import io.sandboxfactory.core.session.SessionEnvironment;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What {@code SandboxFactory.buildTemplate} builds a template of: a repository (as sessions name
 * it) with its setup commands (empty: the configured ones), or an environment (which carries its
 * repositories' and its workspace's setup), at its base branch (empty: the configured default,
 * else the remote's). Validated on construction, before anything is made.
 *
 * @param repository the repository; for an environment its primary repository
 * @param environment the environment a template is built of, instead of one repository
 */
public record TemplateRequest(String repository, Optional<List<String>> setupCommands, Optional<String> baseBranch,
                              Optional<SessionEnvironment> environment) {

    public TemplateRequest {
        RepositorySyntax.requireValid(repository);
        setupCommands = Objects.requireNonNull(setupCommands, "setupCommands").map(List::copyOf)
                .map(c -> SetupCommands.requireRunnable(c, "Setup command"));
        Objects.requireNonNull(baseBranch, "baseBranch").ifPresent(b -> GitRefs.requireValid(b, "Base branch"));
        Objects.requireNonNull(environment, "environment");
        if (environment.isPresent() && setupCommands.isPresent()) {
            throw new IllegalArgumentException("A template of an environment takes the setup commands of the environment's"
                    + " repositories and workspace; do not give setup commands besides it.");
        }
        if (environment.isPresent() && !environment.get().repositories().get(0).repository().equals(repository)) {
            throw new IllegalArgumentException("Repository '" + repository + "' is not the primary repository of the environment.");
        }
    }

    public static TemplateRequest of(String repository) {
        return new TemplateRequest(repository, Optional.empty(), Optional.empty(), Optional.empty());
    }

    /** A template of {@code environment}: every repository checked out and set up, then the workspace setup. */
    public static TemplateRequest of(SessionEnvironment environment) {
        return new TemplateRequest(environment.repositories().get(0).repository(), Optional.empty(), Optional.empty(),
                Optional.of(environment));
    }

    public TemplateRequest withSetup(List<String> commands) {
        return new TemplateRequest(repository, Optional.of(commands), baseBranch, environment);
    }

    public TemplateRequest withBase(String base) {
        return new TemplateRequest(repository, setupCommands, Optional.of(base), environment);
    }

    /** What the template is of, for people: the repository, or the environment's directories and repositories. */
    public String describe() {
        return environment.map(env -> "the environment of " + env.repositories().stream()
                .map(r -> r.repoDir() + "=" + r.repository()).collect(Collectors.joining(", "))).orElse(repository);
    }
}
