package io.sandboxfactory.provider.kubernetes;

import io.sandboxfactory.provider.support.SessionNames;

import java.util.regex.Pattern;

/**
 * The Kubernetes name of a session's pod, claim and network policy, so every replica finds the
 * same objects for the same session id.
 *
 * <p>Mapping ({@link SessionNames}): {@code sf-} followed by the session id lower-cased, every character outside {@code
 * [a-z0-9-]} replaced by {@code -}, cut to {@value #MAX_ID_CHARS} characters. When lower-casing,
 * replacing or cutting changed anything, or the id ends in {@code -}, a {@code -} and the first
 * {@value #HASH_HEX_DIGITS} hex digits of the SHA-256 of the raw id (UTF-8) are appended, so ids
 * that sanitize alike ({@code A_b} and {@code a.b}) get different names. Every result is a
 * DNS-1123 label: {@code [a-z0-9]([-a-z0-9]*[a-z0-9])?}, at most 63 characters.
 *
 * <p>Like the docker provider's names, the mapping is not injective for ids crafted to look like a
 * hashed name; the pod's session annotation holds the raw id and is checked on every lookup.
 */
final class ResourceNames {

    static final String PREFIX = "sf-";
    static final int HASH_HEX_DIGITS = SessionNames.HASH_HEX_DIGITS;
    static final int MAX_NAME_CHARS = 63;
    static final int MAX_ID_CHARS = MAX_NAME_CHARS - PREFIX.length() - 1 - HASH_HEX_DIGITS;

    /** Kubernetes' DNS-1123 label rule, which pod, claim and policy names all satisfy. */
    static final Pattern DNS_1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    private static final SessionNames NAMES = new SessionNames(PREFIX, MAX_ID_CHARS, ResourceNames::toLabelChar, false);

    private ResourceNames() {
    }

    /** The object name for {@code sessionId}; see the class comment for the mapping. */
    static String forSession(String sessionId) {
        return NAMES.forSession(sessionId);
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
