package io.sandboxfactory.provider.kubernetes;

import io.sandboxfactory.provider.support.SessionNames;

import java.nio.file.Path;
import java.util.regex.Pattern;

/**
 * The Kubernetes names of a session's pod, claim and network policy, so every replica of one
 * factory finds the same objects for the same session id, and two factories (two owners, or one
 * owner with two state directories) sharing a namespace never collide.
 *
 * <p>Mapping ({@link SessionNames}): {@code sf-}, the tenant ({@value #TENANT_HEX_DIGITS} hex
 * digits of the SHA-256 of the owner and the state directory), {@code -}, then the session id
 * lower-cased, every character outside {@code [a-z0-9-]} replaced by {@code -}, cut to {@value
 * #MAX_ID_CHARS} characters. When lower-casing, replacing or cutting changed anything, or the id
 * ends in {@code -}, a {@code -} and the first {@value #HASH_HEX_DIGITS} hex digits of the SHA-256
 * of the raw id (UTF-8) are appended, so ids that sanitize alike ({@code A_b} and {@code a.b}) get
 * different names. Every result is a DNS-1123 label: {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?}, at most
 * 63 characters.
 *
 * <p>Objects made before names carried the tenant are named {@link #legacyName}: {@code sf-} and the
 * id mapped the same way, cut to {@value #LEGACY_MAX_ID_CHARS} characters. A sandbox still finds
 * and keeps using them when they carry its session and owner, so an upgrade orphans nothing.
 *
 * <p>Like the docker provider's names, the mapping is not injective for ids crafted to look like a
 * hashed name; the pod's session annotation holds the raw id and is checked on every lookup.
 */
final class ResourceNames {

    static final String PREFIX = "sf-";
    static final int HASH_HEX_DIGITS = SessionNames.HASH_HEX_DIGITS;
    static final int TENANT_HEX_DIGITS = 8;
    static final int MAX_NAME_CHARS = 63;
    static final int MAX_ID_CHARS = MAX_NAME_CHARS - PREFIX.length() - TENANT_HEX_DIGITS - 1 - 1 - HASH_HEX_DIGITS;
    static final int LEGACY_MAX_ID_CHARS = MAX_NAME_CHARS - PREFIX.length() - 1 - HASH_HEX_DIGITS;

    /** Kubernetes' DNS-1123 label rule, which pod, claim and policy names all satisfy. */
    static final Pattern DNS_1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    private static final SessionNames LEGACY = new SessionNames(PREFIX, LEGACY_MAX_ID_CHARS, ResourceNames::toLabelChar, false);

    private final String tenant;
    private final SessionNames names;

    private ResourceNames(String tenant) {
        this.tenant = tenant;
        this.names = new SessionNames(PREFIX + tenant + "-", MAX_ID_CHARS, ResourceNames::toLabelChar, false);
    }

    /** The names of the factory of {@code owner} on {@code stateDirectory}. */
    static ResourceNames of(String owner, Path stateDirectory) {
        return new ResourceNames(tenant(owner, stateDirectory));
    }

    /** {@value #TENANT_HEX_DIGITS} hex digits that tell factories apart: owner and absolute state directory. */
    static String tenant(String owner, Path stateDirectory) {
        return shortHash(owner + "\0" + stateDirectory.toAbsolutePath().normalize()).substring(0, TENANT_HEX_DIGITS);
    }

    String tenant() {
        return tenant;
    }

    /** The object name for {@code sessionId}; see the class comment for the mapping. */
    String forSession(String sessionId) {
        return names.forSession(sessionId);
    }

    /** The name objects of {@code sessionId} had before names carried the tenant. */
    static String legacyName(String sessionId) {
        return LEGACY.forSession(sessionId);
    }

    private static int toLabelChar(int cp) {
        if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9') || cp == '-') {
            return cp;
        }
        return cp >= 'A' && cp <= 'Z' ? cp - 'A' + 'a' : '-';
    }

    static String shortHash(String value) {
        return SessionNames.shortHash(value);
    }
}
