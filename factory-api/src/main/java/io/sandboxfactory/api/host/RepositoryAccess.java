package io.sandboxfactory.api.host;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How to reach a repository right now: a clean clone URL (never with credentials in it) and an
 * optional short-lived authorization. Minted per call by a {@link RepositoryAccessSource}.
 *
 * <p>A URL carrying user info is rejected, because a user name there is commonly a token
 * ({@code https://TOKEN@host/...}); the one exception is a bare login name on an ssh URL
 * ({@code ssh://git@host/...}), which is not a secret. The error never shows the user info.
 *
 * @param cloneUrl the URL or path git clones from; must not embed credentials
 * @param authorization the token to present, when the remote needs one
 * @since 0.1.0
 */
public record RepositoryAccess(String cloneUrl, Optional<Authorization> authorization) {

    private static final Pattern SCHEME = Pattern.compile("^([A-Za-z][A-Za-z0-9+.-]*)://");

    public RepositoryAccess {
        Objects.requireNonNull(cloneUrl, "cloneUrl");
        Objects.requireNonNull(authorization, "authorization");
        Matcher scheme = SCHEME.matcher(cloneUrl);
        if (scheme.find()) {
            int credentialsEnd = credentialsEnd(cloneUrl, scheme.group(1).toLowerCase(Locale.ROOT), scheme.end());
            if (credentialsEnd >= 0) {
                throw new InvalidInputException(StandardErrorCode.INVALID_REPOSITORY, "Clone URL '" + cloneUrl.substring(0, scheme.end()) + "***"
                        + cloneUrl.substring(credentialsEnd)
                        + "' is invalid; it must not contain credentials (pass a token as the authorization instead).");
            }
        }
    }

    /** Access without credentials. */
    public static RepositoryAccess anonymous(String cloneUrl) {
        return new RepositoryAccess(cloneUrl, Optional.empty());
    }

    /**
     * The index of the '@' that ends the credentials in {@code url}, or -1 when it has none.
     * {@code authorityStart} is where the text after {@code scheme://} begins.
     */
    private static int credentialsEnd(String url, String scheme, int authorityStart) {
        int authorityEnd = authorityStart;
        while (authorityEnd < url.length() && "/?#".indexOf(url.charAt(authorityEnd)) < 0) {
            authorityEnd++;
        }
        String authority = url.substring(authorityStart, authorityEnd);
        int at = authority.lastIndexOf('@');
        if (at >= 0) {
            boolean ssh = scheme.equals("ssh") || scheme.equals("git+ssh") || scheme.equals("ssh+git");
            boolean sshLogin = ssh && authority.lastIndexOf(':', at) < 0;
            return sshLogin ? -1 : authorityStart + at;
        }
        // A password holding '/', '?' or '#' ends the authority early ("user:pa/ss@host"): that leaves
        // a port that is not a number, and an '@' further on. Hide everything up to the last '@'.
        int lastAt = url.lastIndexOf('@');
        return lastAt > authorityEnd && !hasNumericPortOrNone(authority) ? lastAt : -1;
    }

    private static boolean hasNumericPortOrNone(String hostPort) {
        int hostEnd = hostPort.startsWith("[") ? Math.max(hostPort.indexOf(']'), 0) : 0;
        int colon = hostPort.indexOf(':', hostEnd);
        return colon < 0 || hostPort.substring(colon + 1).chars().allMatch(c -> c >= '0' && c <= '9');
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
                throw new InvalidInputException(StandardErrorCode.INVALID_REPOSITORY, "The repository token is blank; pass a real token or no authorization.");
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
