package io.sandboxfactory.provider.support;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;
import java.util.function.IntUnaryOperator;

/**
 * Derives the name of a session's backend object (a container, a pod) from its session id, for
 * backends whose alphabet is narrower than the session id grammar: the prefix, then the id with
 * every code point mapped into the backend's alphabet, cut to {@code maxIdChars}. When mapping or
 * cutting changed anything (or the result may not end as it does), {@code -} and the first {@value
 * #HASH_HEX_DIGITS} hex digits of the SHA-256 of the raw id (UTF-8) are appended, so ids that map
 * alike still get different names, and an id that needs no change keeps a readable name.
 *
 * @param prefix what every name starts with, e.g. {@code sf-}
 * @param maxIdChars how many characters of the mapped id the name keeps
 * @param mapping the character a code point of the id becomes; a different value counts as a change
 * @param mayEndWithDash whether the backend accepts a name ending in {@code -}; when not, such a
 *     name gets the hash suffix, which ends in a hex digit
 */
public record SessionNames(String prefix, int maxIdChars, IntUnaryOperator mapping, boolean mayEndWithDash) {

    /** How many hex digits of the id's hash a changed name ends with. */
    public static final int HASH_HEX_DIGITS = 12;

    public SessionNames {
        Objects.requireNonNull(prefix, "prefix");
        Objects.requireNonNull(mapping, "mapping");
        if (maxIdChars < 1) {
            throw new IllegalArgumentException("maxIdChars " + maxIdChars + " is invalid; it must be at least 1.");
        }
    }

    /** The name for {@code sessionId}. */
    public String forSession(String sessionId) {
        StringBuilder mapped = new StringBuilder(Math.min(sessionId.length(), maxIdChars));
        boolean changed = false;
        int count = 0;
        for (int i = 0; i < sessionId.length(); ) {
            int cp = sessionId.codePointAt(i);
            i += Character.charCount(cp);
            if (count == maxIdChars) {
                changed = true;
                break;
            }
            int to = mapping.applyAsInt(cp);
            mapped.append((char) to);
            changed |= to != cp;
            count++;
        }
        boolean badEnd = !mayEndWithDash && (mapped.length() == 0 || mapped.charAt(mapped.length() - 1) == '-');
        String name = prefix + mapped;
        return changed || badEnd ? name + "-" + shortHash(sessionId) : name;
    }

    /** The first {@value #HASH_HEX_DIGITS} hex digits of the SHA-256 of {@code value} in UTF-8. */
    public static String shortHash(String value) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, HASH_HEX_DIGITS);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM, which every Java platform must provide.", e);
        }
    }
}
