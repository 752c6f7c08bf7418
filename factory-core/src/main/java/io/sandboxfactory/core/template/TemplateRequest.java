package io.sandboxfactory.core.template;

import io.sandboxfactory.core.git.GitRefs;
import io.sandboxfactory.core.session.RepositoryLocator;
import io.sandboxfactory.core.setup.SetupCommands;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code SandboxFactory.buildTemplate} builds a template of: a repository (as sessions name
 * it) with its setup commands (empty: the configured ones) at its base branch (empty: the
 * configured default, else the remote's). Validated on construction, before anything is made.
 */
public record TemplateRequest(String repository, Optional<List<String>> setupCommands, Optional<String> baseBranch) {

    public TemplateRequest {
        RepositoryLocator.requireValid(repository);
        setupCommands = Objects.requireNonNull(setupCommands, "setupCommands").map(List::copyOf)
                .map(c -> SetupCommands.requireRunnable(c, "Setup command"));
        Objects.requireNonNull(baseBranch, "baseBranch").ifPresent(b -> GitRefs.requireValid(b, "Base branch"));
    }

    public static TemplateRequest of(String repository) {
        return new TemplateRequest(repository, Optional.empty(), Optional.empty());
    }

    public TemplateRequest withSetup(List<String> commands) {
        return new TemplateRequest(repository, Optional.of(commands), baseBranch);
    }

    public TemplateRequest withBase(String base) {
        return new TemplateRequest(repository, setupCommands, Optional.of(base));
    }
}
