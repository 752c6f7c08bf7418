package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.InvalidInputException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/** Checks that a session id names exactly one directory directly under the sessions root. */
final class SessionIds {

    static final int MAX_LENGTH = 200;
    /** Linux's limit on one file name. */
    static final int MAX_UTF8_BYTES = 255;

    private SessionIds() {
    }

    /** The session directory for {@code sessionId}, or an exception naming the id and the rule it breaks. */
    static Path sessionDirectory(Path root, String sessionId) {
        String problem = problem(sessionId);
        if (problem != null) {
            throw new InvalidInputException(ErrorCode.INVALID_SESSION_ID, "Session id '" + printable(sessionId) + "' is invalid for the local provider: " + problem + ".");
        }
        Path dir = root.resolve(sessionId).normalize();
        if (!dir.getParent().equals(root)) {
            throw new InvalidInputException(ErrorCode.INVALID_SESSION_ID, "Session id '" + printable(sessionId) + "' is invalid for the local provider: it escapes the sessions root " + root + ".");
        }
        return dir;
    }

    private static String problem(String id) {
        if (id == null || id.isEmpty()) {
            return "it must not be empty";
        }
        if (id.length() > MAX_LENGTH) {
            return "it must be at most " + MAX_LENGTH + " characters";
        }
        if (id.equals(".") || id.equals("..")) {
            return "'.' and '..' are not session ids";
        }
        for (int i = 0; i < id.length(); i++) {
            char c = id.charAt(i);
            if (c == '/' || c == '\\') {
                return "it must not contain a path separator";
            }
            if (c == 0) {
                return "it must not contain NUL";
            }
            if (Character.isISOControl(c)) {
                return "it must not contain control characters";
            }
        }
        if (id.startsWith(".")) {
            return "it must not start with '.'";
        }
        if (!StandardCharsets.UTF_8.newEncoder().canEncode(id)) {
            return "it must be valid Unicode text (it holds an unpaired surrogate)";
        }
        if (id.getBytes(StandardCharsets.UTF_8).length > MAX_UTF8_BYTES) {
            return "it must be at most " + MAX_UTF8_BYTES + " bytes in UTF-8";
        }
        return null;
    }

    private static String printable(String id) {
        if (id == null) {
            return "null";
        }
        StringBuilder out = new StringBuilder();
        id.codePoints().limit(80).forEach(cp -> {
            if (Character.isISOControl(cp)) {
                out.append(String.format("\\u%04x", cp));
            } else {
                out.appendCodePoint(cp);
            }
        });
        return id.length() > 80 ? out + "…" : out.toString();
    }
}
