package io.sandboxfactory.api;

import java.util.Objects;
import java.util.Optional;

/**
 * How to reach a repository right now: a clean clone URL (never with credentials in it) and an
 * optional short-lived authorization. Minted per call by a {@link RepositoryAccessSource}.
 *
 * @param cloneUrl the URL or path git clones from; must not embed credentials
 * @param authorization the token to present, when the remote needs one
 */
public record RepositoryAccess(String cloneUrl, Optional<Authorization> authorization) {

    public RepositoryAccess {
        Objects.requireNonNull(cloneUrl, "cloneUrl");
        Objects.requireNonNull(authorization, "authorization");
        if (cloneUrl.matches("(?i)^[a-z][a-z0-9+.-]*://[^/@]*@.*")) {
            throw new IllegalArgumentException("Clone URL '" + redactUserInfo(cloneUrl)
                    + "' is invalid; it must not contain credentials (pass a token as the authorization instead).");
        }
    }

    /** Access without credentials. */
    public static RepositoryAccess anonymous(String cloneUrl) {
        return new RepositoryAccess(cloneUrl, Optional.empty());
    }

    private static String redactUserInfo(String url) {
        return url.replaceFirst("://[^/@]*@", "://***@");
    }

    /**
     * A bearer credential. {@link #toString()} never shows the token.
     *
     * @param token the secret
     * @param username the user name git presents with it (GitHub accepts {@code x-access-token})
     */
    public record Authorization(String token, String username) {

        public Authorization {
            Objects.requireNonNull(token, "token");
            if (token.isBlank()) {
                throw new IllegalArgumentException("The repository token is blank; pass a real token or no authorization.");
            }
            username = username == null || username.isBlank() ? "x-access-token" : username;
        }

        public static Authorization bearer(String token) {
            return new Authorization(token, null);
        }

        @Override
        public String toString() {
            return "Authorization[username=" + username + ", token=***]";
        }
    }
}
