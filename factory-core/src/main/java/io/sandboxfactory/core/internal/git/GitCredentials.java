package io.sandboxfactory.core.internal.git;

import io.sandboxfactory.api.host.RepositoryAccess;
import io.sandboxfactory.api.support.Sandboxes;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Hands a repository token to git without it touching disk or argv (design §5.5). The token lives
 * only in the command environment ({@value #TOKEN_VARIABLE}); git reads it through an inline
 * credential helper that names the variable, never its value. The helper is scoped to the remote's
 * origin ({@code scheme://host[:port]}) so no other host is offered the token, and it is passed per
 * command ({@code git -c}, or {@code GIT_CONFIG_*} variables), never written to {@code .git/config}.
 * The helper list for that origin is reset first, so a {@code credential.helper=store} in some
 * global config never gets the token to store.
 */
public final class GitCredentials {

    /** The environment variable holding the token inside the sandbox. */
    public static final String TOKEN_VARIABLE = "GH_TOKEN";
    /** The environment variable holding the user name git presents with the token. */
    public static final String USERNAME_VARIABLE = "SANDBOX_FACTORY_GIT_USERNAME";

    /** Shell code run by git; it prints the variables' values, so only their names appear here. */
    static final String HELPER = "!f() { test \"$1\" = get || return 0; "
            + "echo \"username=${" + USERNAME_VARIABLE + ":-x-access-token}\"; "
            + "echo \"password=${" + TOKEN_VARIABLE + "}\"; }; f";

    private final Optional<String> scope;
    private final Optional<RepositoryAccess.Authorization> authorization;

    private GitCredentials(Optional<String> scope, Optional<RepositoryAccess.Authorization> authorization) {
        this.scope = scope;
        this.authorization = authorization;
    }

    /** Credentials for {@code access}; inert when it carries no token or its URL is not http(s). */
    public static GitCredentials of(RepositoryAccess access) {
        Optional<String> scope = httpOrigin(access.cloneUrl());
        if (scope.isEmpty() || access.authorization().isEmpty()) {
            return new GitCredentials(Optional.empty(), Optional.empty());
        }
        return new GitCredentials(scope, access.authorization());
    }

    /** Whether these credentials supply a token to git. */
    public boolean active() {
        return authorization.isPresent();
    }

    /**
     * Options to put right after {@code git} (before the subcommand, so {@code clone} does not
     * persist them), already shell-quoted; empty when inactive.
     */
    public String gitOptions() {
        if (!active()) {
            return "";
        }
        String key = "credential." + scope.get() + ".helper";
        return "-c " + Sandboxes.quote(key + "=") + " -c " + Sandboxes.quote(key + "=" + HELPER);
    }

    /** The per-command environment carrying the token; empty when inactive. */
    public Map<String, String> commandEnv() {
        Map<String, String> env = new LinkedHashMap<>();
        authorization.ifPresent(auth -> {
            env.put(TOKEN_VARIABLE, auth.token());
            env.put(USERNAME_VARIABLE, auth.username());
        });
        return env;
    }

    /**
     * Variables for the sandbox's env overlay: the token plus the scoped helper as {@code
     * GIT_CONFIG_*} entries, so the session's own git commands (a push, a fetch) authenticate too
     * (git 2.31+). Empty when inactive.
     */
    public Map<String, String> overlayEnv() {
        Map<String, String> env = commandEnv();
        if (active()) {
            String key = "credential." + scope.get() + ".helper";
            env.put("GIT_CONFIG_COUNT", "2");
            env.put("GIT_CONFIG_KEY_0", key);
            env.put("GIT_CONFIG_VALUE_0", "");
            env.put("GIT_CONFIG_KEY_1", key);
            env.put("GIT_CONFIG_VALUE_1", HELPER);
        }
        return env;
    }

    /** The overlay variables this class may set, for removal when a session has no token. */
    public static Set<String> overlayVariables() {
        return Set.of(TOKEN_VARIABLE, USERNAME_VARIABLE, "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0",
                "GIT_CONFIG_VALUE_0", "GIT_CONFIG_KEY_1", "GIT_CONFIG_VALUE_1");
    }

    /** {@code scheme://host[:port]} of an http(s) URL. */
    static Optional<String> httpOrigin(String url) {
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
            if (!scheme.equals("http") && !scheme.equals("https") || uri.getHost() == null) {
                return Optional.empty();
            }
            return Optional.of(scheme + "://" + uri.getHost() + (uri.getPort() >= 0 ? ":" + uri.getPort() : ""));
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    /** Never shows the token. */
    @Override
    public String toString() {
        return "GitCredentials[scope=" + scope.orElse("none") + ", token=" + (active() ? "***" : "none") + "]";
    }
}
