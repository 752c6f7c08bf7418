package io.sandboxfactory.core.config;

import io.sandboxfactory.core.session.EnvironmentRepository;
import io.sandboxfactory.core.session.SessionEnvironment;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * One entry of the {@code environments:} section: several repositories a session checks out side
 * by side, each with its own directory, base, setup and teardown, plus workspace commands run at
 * the root (setup after every repository's, teardown after every repository's). Commands take a
 * string or a list. Checked when the config is read, so a bad environment fails before anything is
 * created.
 *
 * @param repos in position order; the first is the primary
 * @param setup the workspace setup
 * @param teardown the workspace teardown
 * @param setupSecrets host variables every setup of the environment gets, and no later command
 */
public record EnvironmentConfig(List<Repo> repos, List<String> setup, List<String> teardown, List<String> setupSecrets) {

    /**
     * One repository of an environment.
     *
     * @param repo a slug, clone URL or local path
     * @param dir its checkout directory (default: the repository's name)
     * @param base its base branch (default: the session's base, else its own default branch)
     * @param setup run in its checkout once per sandbox
     * @param teardown run in its checkout on retirement
     */
    public record Repo(String repo, String dir, String base, List<String> setup, List<String> teardown) {
        public Repo {
            setup = setup == null ? List.of() : List.copyOf(setup);
            teardown = teardown == null ? List.of() : List.copyOf(teardown);
        }
    }

    public EnvironmentConfig {
        repos = repos == null ? List.of() : List.copyOf(repos);
        setup = setup == null ? List.of() : List.copyOf(setup);
        teardown = teardown == null ? List.of() : List.copyOf(teardown);
        setupSecrets = setupSecrets == null ? List.of() : List.copyOf(setupSecrets);
        environment(repos, setup, teardown, setupSecrets);
    }

    /** The environment a session opens. */
    public SessionEnvironment toEnvironment() {
        return environment(repos, setup, teardown, setupSecrets);
    }

    /** Fails naming the value and the rule when an entry is invalid. */
    private static SessionEnvironment environment(List<Repo> repos, List<String> setup, List<String> teardown, List<String> setupSecrets) {
        return new SessionEnvironment(repos.stream().map(r -> new EnvironmentRepository(Objects.requireNonNull(r.repo(),
                "Every repository of an environment needs 'repo'"), Optional.ofNullable(r.dir()), Optional.ofNullable(r.base()),
                r.setup(), r.teardown(), Optional.empty())).toList(), setup, teardown, setupSecrets);
    }
}
