package io.sandboxfactory.core.config;

import java.util.List;
import java.util.Objects;

/**
 * The {@code repository:} section: how to reach a repository named {@code owner/name} and what to
 * run in a fresh checkout.
 *
 * @param cloneUrlTemplate clone URL with {@code {owner}} and {@code {name}} placeholders; default
 *     {@code https://github.com/{owner}/{name}.git}
 * @param defaultBaseBranch the branch new session branches start from; default {@code main}
 * @param setup commands run once per sandbox after the checkout (blank ones dropped)
 * @param teardown commands run when a session is retired (blank ones dropped)
 */
public record RepositoryDefaults(String cloneUrlTemplate, String defaultBaseBranch, List<String> setup, List<String> teardown) {

    public static final String DEFAULT_CLONE_URL_TEMPLATE = "https://github.com/{owner}/{name}.git";
    public static final String DEFAULT_BASE_BRANCH = "main";

    public RepositoryDefaults {
        cloneUrlTemplate = cloneUrlTemplate == null ? DEFAULT_CLONE_URL_TEMPLATE : cloneUrlTemplate.trim();
        defaultBaseBranch = defaultBaseBranch == null ? DEFAULT_BASE_BRANCH : defaultBaseBranch.trim();
        setup = nonBlank(setup);
        teardown = nonBlank(teardown);
        if (!cloneUrlTemplate.contains("{name}")) {
            throw new IllegalArgumentException("Clone URL template '" + cloneUrlTemplate
                    + "' is invalid; it must contain {name} (and usually {owner}).");
        }
        if (defaultBaseBranch.isEmpty()) {
            throw new IllegalArgumentException("Default base branch must not be blank.");
        }
    }

    private static List<String> nonBlank(List<String> commands) {
        return commands == null ? List.of() : commands.stream().filter(Objects::nonNull).filter(c -> !c.isBlank()).toList();
    }

    /** Every default: GitHub over HTTPS, base branch {@code main}, no setup or teardown. */
    public static RepositoryDefaults defaults() {
        return new RepositoryDefaults(null, null, null, null);
    }

    /** The clone URL of {@code owner/name} from the template. */
    public String cloneUrl(String owner, String name) {
        return cloneUrlTemplate.replace("{owner}", owner).replace("{name}", name);
    }
}
