package io.sandboxfactory.api.support;

import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.InvalidInputException;

import java.util.Map;
import java.util.regex.Pattern;

/**
 * The rules for environment variables a provider hands to a process (its configured variables and
 * each command's), checked before anything starts so a bad name fails with one sentence naming it
 * instead of an opaque error from the process API. The value is never shown: it may be a secret.
 *
 * @since 0.1.0
 */
public final class EnvironmentVariables {

    private static final Pattern IDENTIFIER = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private EnvironmentVariables() {
    }

    /**
     * What any process environment accepts: a non-empty name without {@code =} or NUL, and a
     * non-null value without NUL. {@code where} starts the message, e.g. {@code providers.docker.env}.
     *
     * @throws InvalidInputException naming the variable and the rule
     */
    public static void requireValid(String name, String value, String where) {
        if (name == null || name.isEmpty() || name.indexOf('=') >= 0 || name.indexOf('\0') >= 0) {
            throw new InvalidInputException(ErrorCode.INVALID_ARGUMENT, where + " variable name '" + printable(name)
                    + "' is invalid; it must be non-empty and contain neither '=' nor NUL.");
        }
        requireValue(name, value, where);
    }

    /** {@link #requireValid(String, String, String)} for every variable of {@code env}. */
    public static void requireValid(Map<String, String> env, String where) {
        env.forEach((name, value) -> requireValid(name, value, where));
    }

    /**
     * The narrower rule of a backend that passes variables through {@code env NAME=VALUE} or a shell:
     * the name is a shell identifier (letters, digits and {@code _}, not starting with a digit).
     *
     * @throws InvalidInputException naming the variable and the rule
     */
    public static void requireIdentifier(String name, String value, String where) {
        if (name == null || !IDENTIFIER.matcher(name).matches()) {
            throw new InvalidInputException(ErrorCode.INVALID_ARGUMENT, where + " variable name '" + printable(name) + "' is invalid; it must be letters,"
                    + " digits and '_', not starting with a digit.");
        }
        requireValue(name, value, where);
    }

    private static void requireValue(String name, String value, String where) {
        if (value == null || value.indexOf('\0') >= 0) {
            throw new InvalidInputException(ErrorCode.INVALID_ARGUMENT, where + " variable " + name + " has an invalid value; it must be set and"
                    + " contain no NUL character.");
        }
    }

    private static String printable(String name) {
        return name == null ? null : name.replace("\0", "\\0");
    }
}
