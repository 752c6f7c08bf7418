package io.sandboxfactory.core.session;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.api.support.SessionIds;
import io.sandboxfactory.core.internal.session.RepositorySyntax;

import io.sandboxfactory.api.SandboxResources;
import io.sandboxfactory.api.host.RepositoryAccessSource;
import io.sandboxfactory.core.egress.EgressRule;
import io.sandboxfactory.core.internal.git.GitRefs;
import io.sandboxfactory.core.internal.config.InputText;
import io.sandboxfactory.core.internal.setup.SetupCommands;
import io.sandboxfactory.core.internal.setup.SetupSecrets;
import io.sandboxfactory.store.api.EnvironmentDefinition;
import io.sandboxfactory.store.api.SessionDefinition;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a host asks {@code SandboxFactory.openSession} for. Build with {@link #builder(String)}.
 * Everything is validated on construction — session id, repository, branch and base names — so a
 * bad spec fails with one sentence naming the value and the rule before anything is created.
 * Empty optionals take the factory's configured defaults (base branch, setup and teardown commands,
 * timeouts, repository access).
 *
 * @param sessionId the logical id; the same id always reaches the same sandbox
 * @param repository an {@code owner/name} slug, a clone URL or a local path; empty when {@code environment} is set
 * @param branch the session branch, created from the base when new
 * @param baseBranch the branch a new session branch starts from
 * @param setupCommands run once per sandbox in the checkout (single-repository sessions)
 * @param teardownCommands run before the session is retired, and after a failed setup
 * @param environment several repositories side by side, instead of {@code repository}
 * @param startMode when {@code openSession} starts the sandbox
 * @param repositoryAccess mints access for the (first) repository per start
 * @param setupTimeout how long a setup command may run (default 15 minutes)
 * @param resources requested limits, for providers that enforce them
 * @param workingDirectory a working directory inside the sandbox for providers without one of their own
 * @param labels {@code key=value} pairs to find the session by (see {@link SessionLabels}); an open adds
 *     them to those the session has
 * @param useTemplates whether a new sandbox may be made from a matching template (design §5.14); default true
 * @param ephemeralOwner the process that destroys the session once its one command ended (a {@code
 *     run}), recorded with the session so that {@code sweep} removes it when that process is provably
 *     gone; empty (the default) for a session that is kept
 * @param setupSecrets names of host environment variables the factory reads at open and gives to the
 *     setup commands' environment only, never to later commands, masked in everything the setup's
 *     output reaches; replaces {@code repository.setupSecrets} of the config (an environment's own
 *     {@code setupSecrets} for an environment). A name that is not {@code [A-Za-z_][A-Za-z0-9_]*}
 *     is {@code INVALID_CONFIG}; a variable unset on the host fails the open before anything is
 *     created. The names (never the values) are kept with the session, an environment's own too:
 *     an open that names none, such as a session reached again from the store ({@link #resume}),
 *     uses those an earlier open named, read from its own host when the setup runs again, and
 *     else {@code repository.setupSecrets}.
 * @param egressAllow host patterns ({@code host}, {@code *.domain}, either with {@code :port}) the
 *     session may reach in addition to {@code egress.allow}, kept with the session (an open adds them
 *     to those it has); they only matter in egress mode {@code allowlist}
 */
public record SessionSpec(
        String sessionId,
        Optional<String> repository,
        String branch,
        Optional<String> baseBranch,
        Optional<List<String>> setupCommands,
        Optional<List<String>> teardownCommands,
        Optional<SessionEnvironment> environment,
        StartMode startMode,
        Optional<RepositoryAccessSource> repositoryAccess,
        Optional<Duration> setupTimeout,
        SandboxResources resources,
        Optional<String> workingDirectory,
        Map<String, String> labels,
        boolean useTemplates,
        Optional<HostProcess> ephemeralOwner,
        Optional<List<String>> setupSecrets,
        List<String> egressAllow) {

    /** Longest accepted session id. */
    public static final int MAX_SESSION_ID_LENGTH = SessionIds.MAX_LENGTH;
    /** Longest accepted session id in UTF-8 bytes: one file name on Linux. */
    public static final int MAX_SESSION_ID_BYTES = SessionIds.MAX_BYTES;

    public SessionSpec {
        requireValidSessionId(sessionId);
        Objects.requireNonNull(repository, "repository");
        GitRefs.requireValid(branch, "Branch");
        Objects.requireNonNull(baseBranch, "baseBranch").ifPresent(b -> GitRefs.requireValid(b, "Base branch"));
        setupCommands = Objects.requireNonNull(setupCommands, "setupCommands").map(List::copyOf)
                .map(c -> SetupCommands.requireRunnable(c, "Setup command"));
        teardownCommands = Objects.requireNonNull(teardownCommands, "teardownCommands").map(List::copyOf)
                .map(c -> SetupCommands.requireRunnable(c, "Teardown command"));
        Objects.requireNonNull(environment, "environment");
        startMode = Objects.requireNonNullElse(startMode, StartMode.EAGER);
        Objects.requireNonNull(repositoryAccess, "repositoryAccess");
        Objects.requireNonNull(setupTimeout, "setupTimeout").ifPresent(t -> {
            if (t.isNegative() || t.isZero()) {
                throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Setup timeout " + t + " is invalid; it must be positive.");
            }
        });
        resources = Objects.requireNonNullElse(resources, SandboxResources.none());
        Objects.requireNonNull(workingDirectory, "workingDirectory").ifPresent(w -> {
            if (!w.startsWith("/")) {
                throw new InvalidInputException(StandardErrorCode.INVALID_PATH, "Working directory '" + InputText.shown(w)
                        + "' is invalid; it must be an absolute path inside the sandbox.");
            }
            if (InputText.containsHidden(w)) {
                throw new InvalidInputException(StandardErrorCode.INVALID_PATH, "Working directory '" + InputText.shown(w)
                        + "' is invalid; it must not contain control or invisible formatting characters.");
            }
        });
        if (repository.isPresent() == environment.isPresent()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Session '" + sessionId + "' needs exactly one of a repository or an environment"
                    + (repository.isPresent() ? "; it has both." : "; it has neither."));
        }
        repository.ifPresent(RepositorySyntax::requireValid);
        labels = SessionLabels.requireValid(Objects.requireNonNullElse(labels, Map.of()));
        ephemeralOwner = Objects.requireNonNullElse(ephemeralOwner, Optional.empty());
        setupSecrets = Objects.requireNonNullElse(setupSecrets, Optional.<List<String>>empty()).map(SetupSecrets::requireValidNames);
        egressAllow = List.copyOf(Objects.requireNonNullElse(egressAllow, List.of()));
        egressAllow.forEach(pattern -> EgressRule.parse("egress allow", pattern));
        if (environment.isPresent() && setupCommands.filter(c -> !c.isEmpty()).isPresent()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Session '" + sessionId + "' has an environment, so its setup commands belong to"
                    + " each repository of the environment or to the workspace setup, not to the session.");
        }
        if (environment.isPresent() && teardownCommands.filter(c -> !c.isEmpty()).isPresent()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Session '" + sessionId + "' has an environment, so its teardown commands belong to"
                    + " each repository of the environment or to the workspace teardown, not to the session.");
        }
    }

    /**
     * Fails with one sentence naming the id (escaped) and the rule, unless {@code sessionId} is
     * 1–200 characters and at most 255 UTF-8 bytes of valid Unicode, without control or invisible
     * formatting characters, without {@code /} or {@code \}, not starting with {@code .} (which
     * rules out {@code .} and {@code ..}) or {@code -} (it would read as an option where the id
     * becomes an argument), and without leading or trailing whitespace. The id names a directory, a
     * container and CLI arguments, so these rules keep it one inert name everywhere. Windows device
     * names ({@code CON}, {@code NUL}, ...) are accepted: sandboxes run on Linux hosts and containers.
     */
    public static String requireValidSessionId(String sessionId) {
        // The grammar lives in factory-api (SessionIds) so providers can rely on the very same rule.
        SessionIds.problem(sessionId).ifPresent(problem -> {
            throw new InvalidInputException(StandardErrorCode.INVALID_SESSION_ID, "Session id '" + InputText.shown(sessionId) + "' is invalid: " + problem + ".");
        });
        return sessionId;
    }

    public static SessionSpecBuilder builder(String sessionId) {
        return new SessionSpecBuilder(sessionId);
    }

    /** This spec for an ephemeral session that {@code owner} destroys once its command ended (see {@link #ephemeralOwner()}). */
    public SessionSpec ephemeralFor(HostProcess owner) {
        return new SessionSpec(sessionId, repository, branch, baseBranch, setupCommands, teardownCommands, environment, startMode,
                repositoryAccess, setupTimeout, resources, workingDirectory, labels, useTemplates, Optional.of(owner), setupSecrets,
                egressAllow);
    }

    /** The repositories of this session in position order; one for a single-repository session. */
    public List<String> repositories() {
        return environment.map(e -> e.repositories().stream().map(EnvironmentRepository::repository).toList())
                .orElseGet(() -> List.of(repository.orElseThrow()));
    }

    /** Access sources never show. */
    @Override
    public String toString() {
        return "SessionSpec[id=" + sessionId + ", repositories=" + repositories() + ", branch=" + branch
                + ", base=" + baseBranch.orElse("<default>") + ", startMode=" + startMode + "]";
    }

    /**
     * A builder that reopens the session the store keeps as {@code definition}: the same repository,
     * branch, base (once resolved), setup and teardown commands; it starts lazily unless told otherwise.
     */
    public static SessionSpecBuilder resume(SessionDefinition definition) {
        SessionSpecBuilder spec = builder(definition.sessionId()).branch(definition.branch()).startMode(StartMode.LAZY);
        definition.ephemeralOwner().ifPresent(spec::ephemeralOwner);
        definition.baseBranch().ifPresent(spec::baseBranch);
        if (definition.environment().isPresent()) {
            EnvironmentDefinition env = definition.environment().get();
            return spec.environment(new SessionEnvironment(env.repositories().stream().map(r -> new EnvironmentRepository(r.repository(),
                    Optional.of(r.dir()), r.baseBranch(), r.setupCommands(), r.teardownCommands(), Optional.empty())).toList(),
                    env.workspaceSetup(), env.workspaceTeardown(), List.of()));
        }
        return spec.repository(definition.repository())
                .setupCommands(definition.setupCommands())
                .teardownCommands(definition.teardownCommands());
    }
}
