package io.sandboxfactory.provider.kubernetes;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.regex.Pattern;

/**
 * The Kubernetes name of a session's pod, claim and network policy, so every replica finds the
 * same objects for the same session id.
 *
 * <p>Mapping: {@code sf-} followed by the session id lower-cased, every character outside {@code
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
    static final int HASH_HEX_DIGITS = 12;
    static final int MAX_NAME_CHARS = 63;
    static final int MAX_ID_CHARS = MAX_NAME_CHARS - PREFIX.length() - 1 - HASH_HEX_DIGITS;

    /** Kubernetes' DNS-1123 label rule, which pod, claim and policy names all satisfy. */
    static final Pattern DNS_1123_LABEL = Pattern.compile("[a-z0-9]([-a-z0-9]*[a-z0-9])?");

    private ResourceNames() {
    }

    /** The object name for {@code sessionId}; see the class comment for the mapping. */
    static String forSession(String sessionId) {
        StringBuilder sanitized = new StringBuilder(Math.min(sessionId.length(), MAX_ID_CHARS));
        boolean changed = false;
        int count = 0;
        for (int i = 0; i < sessionId.length(); ) {
            int cp = sessionId.codePointAt(i);
            i += Character.charCount(cp);
            if (count == MAX_ID_CHARS) {
                changed = true;
                break;
            }
            if ((cp >= 'a' && cp <= 'z') || (cp >= '0' && cp <= '9') || cp == '-') {
                sanitized.append((char) cp);
            } else if (cp >= 'A' && cp <= 'Z') {
                sanitized.append((char) (cp - 'A' + 'a'));
                changed = true;
            } else {
                sanitized.append('-');
                changed = true;
            }
            count++;
        }
        // A name may not end in '-'; the hash suffix ends in a hex digit.
        if (changed || sanitized.length() == 0 || sanitized.charAt(sanitized.length() - 1) == '-') {
            return PREFIX + sanitized + "-" + shortHash(sessionId);
        }
        return PREFIX + sanitized;
    }

    static String shortHash(String value) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, HASH_HEX_DIGITS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM, which every Java platform must provide.", e);
        }
    }
}
