package io.sandboxfactory.core.config;

import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.internal.git.GitRefs;
import io.sandboxfactory.core.internal.config.InputText;
import io.sandboxfactory.core.internal.session.RepositorySyntax;
import io.sandboxfactory.core.internal.setup.SetupCommands;
import io.sandboxfactory.core.internal.setup.SetupSecrets;
import io.sandboxfactory.core.internal.template.TemplateInputs;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The {@code repository:} section: how to reach a repository named {@code owner/name}, which local
 * repositories sessions may clone, and what to run in a fresh checkout. Every value is validated on
 * construction with one sentence naming the value and the rule, so bad config fails while the
 * config is read, before the factory creates anything.
 *
 * @param cloneUrlTemplate clone URL with {@code {owner}} and {@code {name}} (or {@code {repo}})
 *     placeholders; it must expand to a URL with an allowed scheme, without credentials; default
 *     {@code https://github.com/{owner}/{name}.git}
 * @param defaultBaseBranch the branch new session branches start from; a valid branch name; when unset,
 *     each repository's own default branch (the remote's {@code HEAD}, else {@code main})
 * @param setup commands run once per sandbox after the checkout (blank ones dropped; no NUL characters)
 * @param teardown commands run when a session is retired (blank ones dropped; no NUL characters)
 * @param allowedFileRoots absolute host directories that local repository paths and {@code file://}
 *     URLs must lie under; empty (the default) allows every local repository
 * @param templateInputs files (relative to the checkout) whose content decides whether a template
 *     still fits, e.g. {@code package-lock.json}: hashed at the base commit (design §5.14)
 * @param setupSecrets names of host environment variables whose values the setup commands get in
 *     their environment, and no later command (each {@code [A-Za-z_][A-Za-z0-9_]*})
 * @param exposeToken give the sandbox the repository token ({@code GH_TOKEN} in every command's
 *     environment) instead of serving its repositories through the factory's Git gateway; unsafe with
 *     untrusted code (default false)
 * @param pushNamespace a branch namespace every session may push to through the gateway besides its
 *     own branch (every branch under {@code refs/heads/<namespace>/}); empty for none
 */
public record RepositoryDefaults(String cloneUrlTemplate, Optional<String> defaultBaseBranch, List<String> setup, List<String> teardown,
                                 List<String> allowedFileRoots, List<String> templateInputs, List<String> setupSecrets, Boolean exposeToken,
                                 Optional<String> pushNamespace) {

    public static final String DEFAULT_CLONE_URL_TEMPLATE = "https://github.com/{owner}/{name}.git";

    public RepositoryDefaults {
        cloneUrlTemplate = cloneUrlTemplate == null ? DEFAULT_CLONE_URL_TEMPLATE : cloneUrlTemplate.trim();
        defaultBaseBranch = defaultBaseBranch == null ? Optional.empty() : defaultBaseBranch.map(String::trim);
        // Every bad value of the section is reported at once, each by its key; the checks' own sentences
        // carry the value (masked where it may hold a secret), so the problems name none of their own.
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        List<String> setupCommands = nonBlank(setup);
        List<String> teardownCommands = nonBlank(teardown);
        List<String> inputs = templateInputs == null ? List.of() : templateInputs;
        List<String> secrets = setupSecrets == null ? List.of() : setupSecrets;
        String template = cloneUrlTemplate;
        Optional<String> base = defaultBaseBranch;
        setup = checked(problems, "setup", () -> SetupCommands.requireRunnable(setupCommands, "Setup command"));
        teardown = checked(problems, "teardown", () -> SetupCommands.requireRunnable(teardownCommands, "Teardown command"));
        allowedFileRoots = allowedFileRoots == null ? List.of() : allowedFileRoots;
        for (int i = 0; i < allowedFileRoots.size(); i++) {
            String root = allowedFileRoots.get(i);
            checked(problems, "allowedFileRoots[" + i + "]", () -> requireRoot(root));
        }
        checked(problems, "cloneUrlTemplate", () -> RepositorySyntax.requireValidTemplate(template));
        checked(problems, "defaultBaseBranch", () -> base.map(b -> GitRefs.requireValid(b, "Default base branch")));
        templateInputs = checked(problems, "templateInputs", () -> TemplateInputs.requireValid(inputs));
        setupSecrets = checked(problems, "setupSecrets", () -> SetupSecrets.requireValidNames(secrets));
        exposeToken = exposeToken != null && exposeToken;
        pushNamespace = pushNamespace == null ? Optional.empty() : pushNamespace.map(String::trim);
        Optional<String> namespace = pushNamespace;
        checked(problems, "pushNamespace", () -> namespace.map(RepositoryDefaults::requireNamespace));
        problems.throwIfAny();
        allowedFileRoots = List.copyOf(allowedFileRoots);
    }

    private static List<String> nonBlank(List<String> commands) {
        return commands == null ? List.of() : commands.stream().filter(Objects::nonNull).filter(c -> !c.isBlank()).toList();
    }

    /** A push namespace: a branch path without leading or trailing '/' (so {@code <namespace>/x} is a valid branch). */
    private static String requireNamespace(String namespace) {
        if (namespace.isEmpty() || namespace.startsWith("/") || namespace.endsWith("/") || !GitRefs.isValidGitRef(namespace + "/x")) {
            throw new InvalidInputException(StandardErrorCode.INVALID_CONFIG, "Push namespace '" + InputText.shown(namespace)
                    + "' is invalid; it must be a branch path such as 'agents' or 'ai/work' (no leading or trailing '/').");
        }
        return namespace;
    }

    private static String requireRoot(String root) {
        if (root == null || !root.startsWith("/") || InputText.containsHidden(root)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_CONFIG, "Allowed file root '" + InputText.shown(root)
                    + "' is invalid; it must be an absolute path without control characters.");
        }
        return root;
    }

    /** {@code check}'s result, or null after recording its failure under {@code key}. */
    private static <T> T checked(InvalidConfigValueException.Collector problems, String key, Supplier<T> check) {
        try {
            return check.get();
        } catch (InvalidInputException e) {
            problems.reject(key, null, e.getMessage());
            return null;
        }
    }

    /** Every default: GitHub over HTTPS, each repository's default branch as base, no setup or teardown, every local repository allowed. */
    public static RepositoryDefaults defaults() {
        return new RepositoryDefaults(null, null, null, null, null, null, null, false, null);
    }

    /** The clone URL of {@code owner/name} from the template. */
    public String cloneUrl(String owner, String name) {
        return cloneUrlTemplate.replace("{owner}", owner).replace("{name}", name);
    }
}
