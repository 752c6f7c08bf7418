package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.api.host.RepositoryAccessSource;
import io.sandboxfactory.core.internal.setup.SetupCommands;
import io.sandboxfactory.core.internal.setup.SetupSecrets;
import io.sandboxfactory.core.session.SessionEnvironment;
import io.sandboxfactory.core.session.SessionLayout;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.store.api.EnvironmentDefinition;
import io.sandboxfactory.store.api.SessionDefinition;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link SessionSpec} with every default applied: what the start hook and retirement act on.
 *
 * @param sessionId the logical id
 * @param branch the session branch, checked out in every repository
 * @param repositories in position order, the first is the session's own (the primary)
 * @param environment whether this is a multi-repository environment (markers {@code repos/<dir>})
 * @param workspaceSetup run in the root after the repositories' setup (environments only)
 * @param workspaceTeardown run in the root after the repositories' teardown (environments only)
 * @param setupTimeout limit of one setup unit
 * @param labels the labels the open adds to the session's
 * @param ephemeralOwner the {@code run} process that destroys the session after its command (see {@link SessionSpec#ephemeralOwner()})
 * @param setupSecrets what the setup commands (and only they) get in their environment, read from the host at open
 * @param setupSecretNames the names an open gave ({@link SessionSpec#setupSecrets()}, an environment's own),
 *     this one's or, when it gave none, an earlier one's as the store keeps them; empty: the configured names apply
 */
public record SessionPlan(String sessionId, String branch, List<Repository> repositories, boolean environment,
                          SetupCommands workspaceSetup, SetupCommands workspaceTeardown, Duration setupTimeout, Map<String, String> labels,
                          Optional<HostProcess> ephemeralOwner, SetupSecrets setupSecrets, Optional<List<String>> setupSecretNames) {

    /**
     * Whether {@code other} asks a start for the same work: everything equal but how each
     * repository's token is minted (a source per open), so a start of one serves the other.
     */
    boolean sameWork(SessionPlan other) {
        if (!sessionId.equals(other.sessionId) || !branch.equals(other.branch) || environment != other.environment
                || !workspaceSetup.text().equals(other.workspaceSetup.text()) || !workspaceTeardown.text().equals(other.workspaceTeardown.text())
                || !setupTimeout.equals(other.setupTimeout) || !labels.equals(other.labels) || !ephemeralOwner.equals(other.ephemeralOwner)
                || !setupSecrets.equals(other.setupSecrets) || !setupSecretNames.equals(other.setupSecretNames)
                || repositories.size() != other.repositories.size()) {
            return false;
        }
        for (int i = 0; i < repositories.size(); i++) {
            Repository mine = repositories.get(i);
            Repository theirs = other.repositories.get(i);
            if (!mine.repository().equals(theirs.repository()) || !mine.dir().equals(theirs.dir()) || !mine.baseBranch().equals(theirs.baseBranch())
                    || !mine.setup().text().equals(theirs.setup().text()) || !mine.teardown().text().equals(theirs.teardown().text())) {
                return false;
            }
        }
        return true;
    }

    /**
     * One repository of the plan.
     *
     * @param repository as named by the host
     * @param dir its checkout directory under the session root
     * @param baseBranch the base of the session branch in this repository; empty: the remote's default
     *     branch, resolved by the start that needs it
     * @param setup run in its checkout
     * @param teardown run in its checkout on retirement (and after a failed setup)
     * @param access mints access per start
     */
    public record Repository(String repository, String dir, Optional<String> baseBranch, SetupCommands setup, SetupCommands teardown,
                             RepositoryAccessSource access) {
        @Override
        public String toString() {
            return "Repository[" + repository + ", dir=" + dir + ", base=" + baseBranch.orElse("<remote HEAD>") + "]";
        }
    }

    /**
     * One unit of a session's teardown.
     *
     * @param label names it in the log ({@code teardown}, {@code teardown of frontend}, {@code workspace teardown})
     * @param commands what runs
     * @param directory where it runs, inside the sandbox
     */
    public record Teardown(String label, SetupCommands commands, String directory) {
    }

    public SessionPlan {
        repositories = List.copyOf(repositories);
        labels = Map.copyOf(labels);
        setupSecrets = Objects.requireNonNullElse(setupSecrets, SetupSecrets.none());
        setupSecretNames = Objects.requireNonNullElse(setupSecretNames, Optional.<List<String>>empty()).map(List::copyOf);
    }

    /** Applies {@code defaults} to {@code spec}, for a session the store does not know. */
    public static SessionPlan of(SessionSpec spec, SessionDefaults defaults) {
        return of(spec, defaults, Optional.empty());
    }

    /**
     * Applies {@code defaults} to {@code spec}, for a session whose earlier opens named the setup
     * secrets {@code storedSetupSecrets} (as the store keeps them): used when {@code spec} names none.
     */
    public static SessionPlan of(SessionSpec spec, SessionDefaults defaults, Optional<List<String>> storedSetupSecrets) {
        Optional<String> base = spec.baseBranch().or(defaults::baseBranch);
        Duration setupTimeout = spec.setupTimeout().orElse(defaults.timeouts().setup());
        if (spec.environment().isPresent()) {
            SessionEnvironment env = spec.environment().get();
            // An environment's own names are kept like names given at open: a stored environment does not hold them.
            Optional<List<String>> named = spec.setupSecrets().or(() -> Optional.of(env.setupSecrets()).filter(n -> !n.isEmpty()))
                    .or(() -> storedSetupSecrets);
            SetupSecrets secrets = SetupSecrets.read(named.orElse(List.of()), defaults.hostEnvironment());
            List<Repository> repos = env.repositories().stream().map(r -> new Repository(r.repository(), r.repoDir(),
                    r.baseBranch().or(() -> base), SetupCommands.of(r.setupCommands()), SetupCommands.of(r.teardownCommands()),
                    defaults.accessFor(r.repository(), r.repositoryAccess()))).toList();
            return new SessionPlan(spec.sessionId(), spec.branch(), repos, true, SetupCommands.of(env.workspaceSetupCommands()),
                    SetupCommands.of(env.workspaceTeardownCommands()), setupTimeout, spec.labels(), spec.ephemeralOwner(), secrets, named);
        }
        Optional<List<String>> named = spec.setupSecrets().or(() -> storedSetupSecrets);
        String repository = spec.repository().orElseThrow();
        Repository own = new Repository(repository, RepositoryLocator.repoDir(repository), base,
                SetupCommands.of(spec.setupCommands().orElse(defaults.setupCommands())),
                SetupCommands.of(spec.teardownCommands().orElse(defaults.teardownCommands())),
                defaults.accessFor(repository, spec.repositoryAccess()));
        return new SessionPlan(spec.sessionId(), spec.branch(), List.of(own), false, SetupCommands.of(List.of()),
                SetupCommands.of(List.of()), setupTimeout, spec.labels(), spec.ephemeralOwner(),
                SetupSecrets.read(named.orElse(defaults.setupSecrets()), defaults.hostEnvironment()), named);
    }

    /** This plan with {@code base} for its own repository when it names none (the base a start resolved and stored). */
    public SessionPlan withStoredBase(Optional<String> base) {
        Repository own = repositories.get(0);
        if (environment || own.baseBranch().isPresent() || base.isEmpty()) {
            return this;
        }
        List<Repository> repos = new ArrayList<>(repositories);
        repos.set(0, new Repository(own.repository(), own.dir(), base, own.setup(), own.teardown(), own.access()));
        return new SessionPlan(sessionId, branch, repos, environment, workspaceSetup, workspaceTeardown, setupTimeout, labels,
                ephemeralOwner, setupSecrets, setupSecretNames);
    }

    /** The layout of this plan's repositories under {@code root}. */
    public SessionLayout layout(String root) {
        return SessionLayout.of(root, repositories.stream().map(r -> new SessionLayout.Named(r.repository(), r.dir())).toList());
    }

    /**
     * Where readers of the session's files are rooted (design §5.12): a single repository's
     * checkout, or an environment's root, with every checkout under it as {@code <dir>/}.
     */
    public String filesRoot(SessionLayout layout) {
        return environment ? layout.root() : layout.ownRepository().path();
    }

    /**
     * The teardown in the order it runs: each repository's in its own checkout, in position order,
     * then the workspace teardown in the root. Units without commands are left out.
     */
    public List<Teardown> teardowns(SessionLayout layout) {
        List<Teardown> units = new ArrayList<>();
        for (int i = 0; i < repositories.size(); i++) {
            Repository repository = repositories.get(i);
            SessionLayout.Checkout checkout = layout.repositories().get(i);
            if (!repository.teardown().isEmpty()) {
                units.add(new Teardown(environment ? "teardown of " + checkout.repoDir() : "teardown", repository.teardown(), checkout.path()));
            }
        }
        if (!workspaceTeardown.isEmpty()) {
            units.add(new Teardown("workspace teardown", workspaceTeardown, layout.root()));
        }
        return units;
    }

    /** Whether retiring the session runs anything. */
    public boolean hasTeardown() {
        return !workspaceTeardown.isEmpty() || repositories.stream().anyMatch(r -> !r.teardown().isEmpty());
    }

    /** The record the session store keeps for this plan. */
    public SessionDefinition definition(Optional<String> provider) {
        Repository own = repositories.get(0);
        if (!environment) {
            return new SessionDefinition(sessionId, own.repository(), branch, own.baseBranch(), own.setup().commands(),
                    own.teardown().commands(), provider, labels, Optional.empty(), ephemeralOwner, setupSecretNames);
        }
        EnvironmentDefinition env = new EnvironmentDefinition(repositories.stream().map(r -> new EnvironmentDefinition.RepositoryDefinition(
                r.repository(), r.dir(), r.baseBranch(), r.setup().commands(), r.teardown().commands())).toList(),
                workspaceSetup.commands(), workspaceTeardown.commands());
        return new SessionDefinition(sessionId, own.repository(), branch, Optional.empty(), List.of(), List.of(), provider, labels,
                Optional.of(env), ephemeralOwner, setupSecretNames);
    }
}
