package io.sandboxfactory.cli.session;

import io.sandboxfactory.api.error.ErrorKind;
import io.sandboxfactory.api.files.SandboxFileException;
import io.sandboxfactory.cli.BadInputException;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.files.SandboxFilesystem;
import io.sandboxfactory.core.session.SessionSpec;

import java.util.Optional;
import java.util.function.Supplier;

/**
 * What {@code cp}, {@code cat} and {@code ls} share: the {@code SESSION:PATH} argument, the
 * session's files (resumed from the store, rooted at its checkout), and turning a bad path into
 * bad input (exit 2).
 */
public final class SessionFileAccess {

    /**
     * A {@code SESSION:PATH} argument.
     *
     * @param path relative to the session's checkout; {@code ""} is the checkout itself
     */
    public record Target(String sessionId, String path) {

        /**
         * The session side of {@code argument}, like {@code docker cp}: a colon before any {@code /}
         * makes it one ({@code ./a:b} is a host path); empty for a host path.
         */
        public static Optional<Target> parse(String argument) {
            int colon = argument.indexOf(':');
            int slash = argument.indexOf('/');
            if (colon <= 0 || (slash >= 0 && slash < colon)) {
                return Optional.empty();
            }
            String sessionId = argument.substring(0, colon);
            SessionSpec.requireValidSessionId(sessionId);
            return Optional.of(new Target(sessionId, argument.substring(colon + 1)));
        }

        public Target {
            try {
                // Refused here, before the session's sandbox is started for nothing.
                SandboxFilesystem.requireRelative(path, "of the checkout of session '" + sessionId + "'");
            } catch (SandboxFileException e) {
                throw new BadInputException(e.errorCode(), e.getMessage(), e);
            }
        }

        /** {@code SESSION[:PATH]}: a bare argument names a session and its whole checkout. */
        public static Target sessionOrPath(String argument) {
            return parse(argument).orElseGet(() -> {
                if (argument.contains("/")) {
                    throw new BadInputException("'" + argument + "' is not SESSION[:PATH]; write the session id, a colon, then a path"
                            + " relative to the session's checkout.");
                }
                return new Target(SessionSpec.requireValidSessionId(argument), "");
            });
        }

        @Override
        public String toString() {
            return sessionId + ":" + path;
        }
    }

    private SessionFileAccess() {
    }

    /** The files of stored session {@code sessionId}, rooted at its checkout; starts its sandbox when needed. */
    public static SandboxFilesystem files(SandboxFactory factory, String sessionId) {
        return files(factory, sessionId, StoredSessions.Audience.CLI);
    }

    public static SandboxFilesystem files(SandboxFactory factory, String sessionId, StoredSessions.Audience audience) {
        return SandboxFilesystem.forSession(StoredSessions.resume(factory, sessionId, audience));
    }

    /** Runs {@code action}, reporting a path the sandbox refused as bad input (with the original as cause, for its code). */
    public static <T> T reportingBadPaths(Supplier<T> action) {
        try {
            return action.get();
        } catch (SandboxFileException e) {
            if (e.kind() != ErrorKind.BAD_INPUT) {
                throw e;
            }
            throw new BadInputException(e.errorCode(), e.getMessage(), e);
        }
    }
}
