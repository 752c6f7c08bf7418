package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.InvalidInputException;

import java.util.Map;

/**
 * Checks environment variables before a process is started with them, so a bad name fails with a
 * sentence naming it instead of an opaque error from {@link ProcessBuilder}.
 */
final class EnvironmentNames {

    private EnvironmentNames() {
    }

    /**
     * Throws {@link IllegalArgumentException} for the first name that is empty or holds {@code =}
     * or NUL, or value that holds NUL; {@code where} starts the message (e.g. "providers.local.env").
     */
    static void requireValid(Map<String, String> env, String where) {
        env.forEach((name, value) -> {
            if (name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
                throw new InvalidInputException(ErrorCode.INVALID_ARGUMENT, where + " variable name '" + name.replace("\0", "\\0")
                        + "' is invalid; it must be non-empty and contain neither '=' nor NUL.");
            }
            if (value.indexOf('\0') >= 0) {
                throw new InvalidInputException(ErrorCode.INVALID_ARGUMENT, where + " variable " + name + " is invalid; its value must not contain NUL.");
            }
        });
    }
}
