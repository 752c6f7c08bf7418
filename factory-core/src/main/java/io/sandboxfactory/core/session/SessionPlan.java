package io.sandboxfactory.core.session;

import io.sandboxfactory.api.RepositoryAccessSource;
import io.sandboxfactory.core.setup.SetupCommands;
import io.sandboxfactory.core.store.SessionDefinition;

import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A {@link SessionSpec} with every default applied: what the start hook and retirement act on.
 *
 * @param sessionId the logical id
 * @param branch the session branch
 * @param repositories in position order, the first is the session's own
 * @param environment whether this is a multi-repository environment (markers {@code repos/<dir>})
 * @param workspaceSetup run in the root after the repositories' setup (environments only)
 * @param teardown run before retirement and after a failed setup
 * @param setupTimeout limit of one setup unit
 */
public record SessionPlan(String sessionId, String branch, List<Repository> repositories, boolean environment,
                          SetupCommands workspaceSetup, SetupCommands teardown, Duration setupTimeout) {

    /**
     * One repository of the plan.
     *
     * @param repository as named by the host
     * @param baseBranch the base of the session branch in this repository
     * @param setup run in its checkout
     * @param access mints access per start
     */
    public record Repository(String repository, String baseBranch, SetupCommands setup, RepositoryAccessSource access) {
        @Override
        public String toString() {
            return "Repository[" + repository + ", base=" + baseBranch + "]";
        }
    }

    public SessionPlan {
        repositories = List.copyOf(repositories);
    }

    /** Applies {@code defaults} to {@code spec}. */
    public static SessionPlan of(SessionSpec spec, SessionDefaults defaults) {
        String base = spec.baseBranch().orElse(defaults.baseBranch());
        SetupCommands teardown = SetupCommands.of(spec.teardownCommands().orElse(defaults.teardownCommands()));
        Duration setupTimeout = spec.setupTimeout().orElse(defaults.timeouts().setup());
        if (spec.environment().isPresent()) {
            SessionEnvironment env = spec.environment().get();
            List<Repository> repos = env.repositories().stream().map(r -> new Repository(r.repository(),
                    r.baseBranch().orElse(base), SetupCommands.of(r.setupCommands()),
                    defaults.accessFor(r.repository(), r.repositoryAccess()))).toList();
            return new SessionPlan(spec.sessionId(), spec.branch(), repos, true,
                    SetupCommands.of(env.workspaceSetupCommands()), teardown, setupTimeout);
        }
        String repository = spec.repository().orElseThrow();
        Repository own = new Repository(repository, base, SetupCommands.of(spec.setupCommands().orElse(defaults.setupCommands())),
                defaults.accessFor(repository, spec.repositoryAccess()));
        return new SessionPlan(spec.sessionId(), spec.branch(), List.of(own), false, SetupCommands.of(List.of()), teardown, setupTimeout);
    }

    /** The layout of this plan's repositories under {@code root}. */
    public SessionLayout layout(String root) {
        return SessionLayout.of(root, repositories.stream().map(Repository::repository).toList());
    }

    /** Where teardown runs: the checkout of a single repository, the root of an environment. */
    public String teardownDirectory(SessionLayout layout) {
        return environment ? layout.root() : layout.ownRepository().path();
    }

    /** The record the session store keeps for this plan. */
    public SessionDefinition definition(Optional<String> provider) {
        Repository own = repositories.get(0);
        List<String> setup = environment ? workspaceSetup.commands() : own.setup().commands();
        return new SessionDefinition(sessionId, own.repository(), branch, own.baseBranch(), setup, teardown.commands(), provider);
    }
}
