package io.sandboxfactory.provider.docker;

import io.sandboxfactory.provider.support.SessionNames;

import java.util.regex.Pattern;

/**
 * The container name of a session, so every process of one tenant finds the same container for
 * the same session id, and two tenants ({@link Tenant}) on one engine never want the same name.
 *
 * <p>Mapping ({@link SessionNames}): {@code sf-}, the tenant's {@link Tenant#key() key} and {@code -}, followed by the session id in which every character outside {@code
 * [a-zA-Z0-9_.-]} is replaced by {@code _}, cut to {@value #MAX_ID_CHARS} characters. When
 * replacing or cutting changed anything, {@code -} and the first {@value #HASH_HEX_DIGITS} hex
 * digits of the SHA-256 of the raw id (UTF-8) are appended, so ids that sanitize alike ({@code
 * a/b} and {@code a:b}) still get different names. An id that needs no change keeps a readable
 * name ({@code sf-1a2b3c4d-issue-42}). Every result matches Docker's rule {@code
 * [a-zA-Z0-9][a-zA-Z0-9_.-]+} and is at most {@value #MAX_NAME_CHARS} characters long.
 *
 * <p>The mapping is not injective for ids crafted to look like a hashed name; the container's
 * {@code io.sandboxfactory.session} label holds the raw id and is checked on every lookup, so such
 * a clash fails clearly instead of sharing a container.
 */
final class ContainerNames {

    static final String PREFIX = "sf-";
    static final int MAX_ID_CHARS = 48;
    static final int HASH_HEX_DIGITS = SessionNames.HASH_HEX_DIGITS;
    static final int MAX_NAME_CHARS = PREFIX.length() + Tenant.KEY_HEX_DIGITS + 1 + MAX_ID_CHARS + 1 + HASH_HEX_DIGITS;

    /** Docker's own rule for container names. */
    static final Pattern DOCKER_NAME = Pattern.compile("[a-zA-Z0-9][a-zA-Z0-9_.-]+");

    private ContainerNames() {
    }

    /** The container name of {@code tenant} for {@code sessionId}; see the class comment for the mapping. */
    static String forSession(Tenant tenant, String sessionId) {
        return new SessionNames(PREFIX + tenant.key() + "-", MAX_ID_CHARS, cp -> isAllowed(cp) ? cp : '_', true).forSession(sessionId);
    }

    /**
     * The name containers made before names carried the tenant got: {@code sf-} and the mapped id.
     * Only read: such a container is found by the id its session recorded (see {@link DockerSandbox}).
     */
    static String legacyName(String sessionId) {
        return new SessionNames(PREFIX, MAX_ID_CHARS, cp -> isAllowed(cp) ? cp : '_', true).forSession(sessionId);
    }

    private static boolean isAllowed(int cp) {
        return (cp >= 'a' && cp <= 'z') || (cp >= 'A' && cp <= 'Z') || (cp >= '0' && cp <= '9')
                || cp == '_' || cp == '.' || cp == '-';
    }
}
