package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.DockerException;
import com.github.dockerjava.api.exception.NotFoundException;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads docker-java failures: what kind they are and the engine's own one-line message. */
final class DockerFailures {

    private static final Pattern JSON_MESSAGE = Pattern.compile("\"message\"\\s*:\\s*\"((?:[^\"\\\\]|\\\\.)*)\"");

    private DockerFailures() {
    }

    /** The engine says the object (container, exec, image) does not exist. */
    static boolean isNotFound(Throwable t) {
        return t instanceof NotFoundException;
    }

    /** The engine refused because of the container's state (not running, paused, name in use). */
    static boolean isConflict(Throwable t) {
        return t instanceof ConflictException;
    }

    /**
     * The most useful short text of {@code t}: the engine's {@code message} for an HTTP error,
     * else the innermost cause's message (a transport failure wraps the {@code IOException}).
     */
    static String message(Throwable t) {
        if (t instanceof DockerException && t.getMessage() != null) {
            Matcher m = JSON_MESSAGE.matcher(t.getMessage());
            if (m.find()) {
                return m.group(1).replace("\\\"", "\"").replace("\\\\", "\\");
            }
            return t.getMessage().strip();
        }
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String text = root.getMessage();
        return text == null || text.isBlank() ? root.getClass().getSimpleName() : text.strip();
    }
}
