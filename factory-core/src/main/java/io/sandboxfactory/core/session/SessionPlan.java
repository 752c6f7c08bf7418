package io.sandboxfactory.core.session;

import io.sandboxfactory.api.RepositoryAccessSource;
import io.sandboxfactory.core.setup.SetupCommands;
import io.sandboxfactory.core.store.SessionDefinition;

import java.time.Duration;
import java.util.List;
import java.util.Map;
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
 * @param labels the labels the open adds to the session's
 */
public record SessionPlan(String sessionId, String branch, List<Repository> repositories, boolean environment,
                          SetupCommands workspaceSetup, SetupCommands teardown, Duration setupTimeout, Map<String, String> labels) {

    /**
     * One repository of the plan.
     *
     * @param repository as named by the host
     * @param baseBranch the base of the session branch in this repository; empty: the remote's default
     *     branch, resolved by the start that needs it
     * @param setup run in its checkout
     * @param access mints access per start
     */
    public record Repository(String repository, Optional<String> baseBranch, SetupCommands setup, RepositoryAccessSource access) {
        @Override
        public String toString() {
            return "Repository[" + repository + ", base=" + baseBranch.orElse("<remote HEAD>") + "]";
        }
    }

    public SessionPlan {
        repositories = List.copyOf(repositories);
        labels = Map.copyOf(labels);
    }

    /** Applies {@code defaults} to {@code spec}. */
    public static SessionPlan of(SessionSpec spec, SessionDefaults defaults) {
        Optional<String> base = spec.baseBranch().or(defaults::baseBranch);
        SetupCommands teardown = SetupCommands.of(spec.teardownCommands().orElse(defaults.teardownCommands()));
        Duration setupTimeout = spec.setupTimeout().orElse(defaults.timeouts().setup());
        if (spec.environment().isPresent()) {
            SessionEnvironment env = spec.environment().get();
            List<Repository> repos = env.repositories().stream().map(r -> new Repository(r.repository(),
                    r.baseBranch().or(() -> base), SetupCommands.of(r.setupCommands()),
                    defaults.accessFor(r.repository(), r.repositoryAccess()))).toList();
            return new SessionPlan(spec.sessionId(), spec.branch(), repos, true,
                    SetupCommands.of(env.workspaceSetupCommands()), teardown, setupTimeout, spec.labels());
        }
        String repository = spec.repository().orElseThrow();
        Repository own = new Repository(repository, base, SetupCommands.of(spec.setupCommands().orElse(defaults.setupCommands())),
                defaults.accessFor(repository, spec.repositoryAccess()));
        return new SessionPlan(spec.sessionId(), spec.branch(), List.of(own), false, SetupCommands.of(List.of()), teardown, setupTimeout,
                spec.labels());
    }

    /** This plan with {@code base} for its own repository when it names none (the base a start resolved and stored). */
    public SessionPlan withStoredBase(Optional<String> base) {
        Repository own = repositories.get(0);
        if (own.baseBranch().isPresent() || base.isEmpty()) {
            return this;
        }
        List<Repository> repos = new java.util.ArrayList<>(repositories);
        repos.set(0, new Repository(own.repository(), base, own.setup(), own.access()));
        return new SessionPlan(sessionId, branch, repos, environment, workspaceSetup, teardown, setupTimeout, labels);
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
        return new SessionDefinition(sessionId, own.repository(), branch, own.baseBranch(), setup, teardown.commands(), provider, labels);
    }
}
