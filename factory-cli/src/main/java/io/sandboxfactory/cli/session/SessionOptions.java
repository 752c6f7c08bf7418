package io.sandboxfactory.cli.session;

import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.EnvironmentRepository;
import io.sandboxfactory.core.session.SessionEnvironment;
import io.sandboxfactory.core.session.SessionLabels;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.SessionSpecBuilder;
import io.sandboxfactory.core.session.StartMode;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The options that describe a session: one repository, or several side by side (an environment:
 * {@code --repo} groups, each with its own {@code --dir}, {@code --setup}s and {@code --teardown}s,
 * or {@code --environment NAME} from config), the branch, base, labels and workspace commands.
 */
public final class SessionOptions {

    /** One {@code --repo} and the options after it, up to the next {@code --repo}. */
    public static final class RepoGroup {
        @Option(names = "--repo", paramLabel = "R", required = true,
                description = "Repository: an owner/name slug (cloned from the configured base URL, default GitHub), a clone URL, or a local path."
                        + " Repeat it for an environment; the --dir, --setup and --teardown after it belong to it.")
        public String repo;

        @Option(names = "--dir", paramLabel = "D", description = "In an environment: the checkout directory of this repository (default: its name).")
        public String dir;

        @Option(names = "--setup", paramLabel = "CMD", description = "Setup command, run once per sandbox in this repository's checkout; repeatable.")
        public List<String> setup = new ArrayList<>();

        @Option(names = "--teardown", paramLabel = "CMD", description = "Teardown command, run in this repository's checkout when the session is retired; repeatable.")
        public List<String> teardown = new ArrayList<>();
    }

    @ArgGroup(exclusive = false, multiplicity = "0..*")
    public List<RepoGroup> repos = new ArrayList<>();

    @Option(names = "--environment", paramLabel = "NAME", description = "Open the environment 'environments.NAME' of the config instead of --repo.")
    public String environment;

    @Option(names = "--workspace-setup", paramLabel = "CMD", description = "Environment: run at the workspace root after every repository's setup; repeatable.")
    public List<String> workspaceSetup = new ArrayList<>();

    @Option(names = "--workspace-teardown", paramLabel = "CMD", description = "Environment: run at the workspace root after every repository's teardown; repeatable.")
    public List<String> workspaceTeardown = new ArrayList<>();

    @Option(names = "--setup-secret", paramLabel = "NAME",
            description = "A variable of this shell the setup commands get, and no later command; masked in every output; its name is kept"
                    + " with the session (default: the names the session keeps, else repository.setupSecrets, or the environment's"
                    + " setupSecrets); repeatable.")
    public List<String> setupSecrets = new ArrayList<>();

    @Option(names = "--branch", paramLabel = "B", required = true, description = "Session branch; created from the base when new (in every repository).")
    public String branch;

    @Option(names = "--base", paramLabel = "X",
            description = "Base branch for a new session branch (default: repository.defaultBaseBranch from config, else the repository's own default branch).")
    public String base;

    @Option(names = "--label", paramLabel = "KEY=VALUE", description = "A label to find the session by (retire --label); repeatable.")
    public List<String> labels = new ArrayList<>();

    @Option(names = "--egress-allow", paramLabel = "H",
            description = "A host the session may reach when egress.mode is allowlist: host, *.domain, either with :port; repeatable,"
                    + " kept with the session.")
    public List<String> egressAllow = new ArrayList<>();

    @Option(names = "--no-template", description = "Make a new sandbox the normal way, even when a template of the repository and setup exists.")
    boolean noTemplate;

    /** The session to open; environments from config come from {@code factory}. */
    public SessionSpec spec(String sessionId, Path workingDirectory, StartMode mode, SandboxFactory factory) {
        SessionSpecBuilder builder = SessionSpec.builder(sessionId).branch(branch).startMode(mode).useTemplates(!noTemplate)
                .egressAllow(egressAllow);
        if (!setupSecrets.isEmpty()) {
            builder.setupSecrets(setupSecrets);
        }
        if (base != null) {
            builder.baseBranch(base);
        }
        for (String label : labels) {
            Map.Entry<String, String> pair = SessionLabels.parse(label);
            builder.label(pair.getKey(), pair.getValue());
        }
        boolean workspace = !workspaceSetup.isEmpty() || !workspaceTeardown.isEmpty();
        if (environment != null) {
            if (!repos.isEmpty() || workspace) {
                throw new BadInputException("--environment " + environment + " names a configured environment; give it alone, without"
                        + " --repo, --workspace-setup or --workspace-teardown.");
            }
            return builder.environment(factory.environment(environment)).build();
        }
        if (repos.isEmpty()) {
            throw new BadInputException("Give the session a repository (--repo R, repeatable for an environment) or --environment NAME.");
        }
        if (repos.size() == 1 && repos.get(0).dir == null && !workspace) {
            RepoGroup only = repos.get(0);
            builder.repository(repository(only.repo, workingDirectory));
            if (!only.setup.isEmpty()) {
                builder.setupCommands(only.setup);
            }
            if (!only.teardown.isEmpty()) {
                builder.teardownCommands(only.teardown);
            }
            return builder.build();
        }
        List<EnvironmentRepository> members = repos.stream().map(r -> new EnvironmentRepository(repository(r.repo, workingDirectory),
                Optional.ofNullable(r.dir), Optional.empty(), r.setup, r.teardown, Optional.empty())).toList();
        return builder.environment(new SessionEnvironment(members, workspaceSetup, workspaceTeardown, List.of())).build();
    }

    /**
     * A repository argument naming an existing local directory is made absolute, since the sandbox
     * runs elsewhere; a slug or URL stays as given.
     */
    public static String repository(String repo, Path workingDirectory) {
        if (repo.contains("://") || repo.startsWith("git@")) {
            return repo;
        }
        Path local = workingDirectory.resolve(repo).normalize();
        boolean looksLocal = repo.startsWith(".") || repo.startsWith("/") || repo.startsWith("~")
                || Files.isDirectory(local.resolve(".git")) || Files.isRegularFile(local.resolve("HEAD"));
        return looksLocal ? local.toString() : repo;
    }
}
