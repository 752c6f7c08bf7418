package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;

import java.nio.file.Path;

/**
 * The session directory of a session id: the framework's one grammar ({@link
 * io.sandboxfactory.api.support.SessionIds}) makes a valid id one file name, so it names exactly one
 * directory directly under the sessions root.
 */
final class SessionIds {

    private SessionIds() {
    }

    /** The session directory for {@code sessionId}, or an exception naming the id and the rule it breaks. */
    static Path sessionDirectory(Path root, String sessionId) {
        io.sandboxfactory.api.support.SessionIds.problem(sessionId).ifPresent(problem -> {
            throw new InvalidInputException(StandardErrorCode.INVALID_SESSION_ID, "Session id '" + printable(sessionId) + "' is invalid: " + problem + ".");
        });
        Path dir = root.resolve(sessionId).normalize();
        if (!dir.getParent().equals(root)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_SESSION_ID, "Session id '" + printable(sessionId) + "' is invalid for the local provider: it escapes the sessions root " + root + ".");
        }
        return dir;
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
