package io.sandboxfactory.api.support;

import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * The session id grammar, the one rule the framework enforces before any provider sees an id, so
 * a provider may rely on it instead of inventing its own. A valid id is 1 to {@value #MAX_LENGTH}
 * UTF-16 chars and at most {@value #MAX_BYTES} bytes in UTF-8 (one Linux file name); it is valid
 * Unicode text with no control, invisible formatting, line or paragraph separator characters; it
 * contains no {@code /} or {@code \}; it does not start with {@code .} or {@code -}; and it has no
 * leading or trailing whitespace. Anything else is allowed (spaces inside, quotes, {@code $},
 * non-ASCII letters), so a provider that puts the id into a shell command quotes it, and one whose
 * backend has a narrower alphabet (container names, DNS labels) derives a name from it, for
 * example by hashing, rather than rejecting ids the framework accepts.
 *
 * @since 0.1.0
 */
public final class SessionIds {

    /** Longest valid session id, in UTF-16 chars. */
    public static final int MAX_LENGTH = 200;
    /** Longest valid session id in UTF-8 bytes: one file name on Linux. */
    public static final int MAX_BYTES = 255;

    private SessionIds() {
    }

    /** Whether {@code sessionId} is a valid session id. */
    public static boolean isValid(String sessionId) {
        return problem(sessionId).isEmpty();
    }

    /**
     * The rule {@code sessionId} breaks, as the end of a sentence ("it must not contain '/' or
     * '\'"), or empty when it is valid.
     */
    public static Optional<String> problem(String sessionId) {
        if (sessionId == null || sessionId.isBlank()) {
            return Optional.of("it must not be blank");
        } else if (sessionId.length() > MAX_LENGTH) {
            return Optional.of("it must be at most " + MAX_LENGTH + " characters long");
        } else if (sessionId.codePoints().anyMatch(cp -> Character.getType(cp) == Character.SURROGATE)) {
            return Optional.of("it must be valid Unicode text (it holds an unpaired surrogate)");
        } else if (sessionId.codePoints().anyMatch(SessionIds::isHidden)) {
            return Optional.of("it must not contain control or invisible formatting characters");
        } else if (sessionId.contains("/") || sessionId.contains("\\")) {
            return Optional.of("it must not contain '/' or '\\'");
        } else if (sessionId.startsWith(".")) {
            return Optional.of("it must not start with '.'");
        } else if (sessionId.startsWith("-")) {
            return Optional.of("it must not start with '-'");
        } else if (!sessionId.strip().equals(sessionId)) {
            return Optional.of("it must not start or end with whitespace");
        } else if (sessionId.getBytes(StandardCharsets.UTF_8).length > MAX_BYTES) {
            return Optional.of("it must be at most " + MAX_BYTES + " bytes long in UTF-8");
        }
        return Optional.empty();
    }

    private static boolean isHidden(int cp) {
        return switch (Character.getType(cp)) {
            case Character.CONTROL, Character.FORMAT, Character.LINE_SEPARATOR, Character.PARAGRAPH_SEPARATOR,
                    Character.SURROGATE -> true;
            default -> false;
        };
    }
}
