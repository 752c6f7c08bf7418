package io.sandboxfactory.api.support;

import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;

import java.util.Map;
import java.util.Optional;
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
    private static final String NAME_RULE = "it must be non-empty and contain neither '=' nor NUL";
    private static final String IDENTIFIER_RULE = "it must be letters, digits and '_', not starting with a digit";
    private static final String VALUE_RULE = "it must be set and contain no NUL character";

    private EnvironmentVariables() {
    }

    /**
     * What any process environment accepts: a non-empty name without {@code =} or NUL, and a
     * non-null value without NUL. {@code where} starts the message, e.g. {@code Command environment}.
     *
     * @throws InvalidInputException naming the variable and the rule
     */
    public static void requireValid(String name, String value, String where) {
        if (!isName(name)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, where + " variable name '" + printable(name)
                    + "' is invalid; " + NAME_RULE + ".");
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
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, where + " variable name '" + printable(name) + "' is invalid; "
                    + IDENTIFIER_RULE + ".");
        }
        requireValue(name, value, where);
    }

    /**
     * Checks {@code env}, the map at {@code key} of a provider's config section (usually {@code
     * env}), by {@link #requireValid(String, String, String)}'s rule: each bad name is rejected as
     * {@code key}, each bad value as {@code key.NAME} without showing it. For a config record's
     * constructor, so that every bad variable is reported with the section's other problems.
     */
    public static void check(Map<String, String> env, String key, InvalidConfigValueException.Collector problems) {
        check(env, key, problems, false);
    }

    /** {@link #check(Map, String, InvalidConfigValueException.Collector)} by {@link #requireIdentifier}'s narrower rule. */
    public static void checkIdentifiers(Map<String, String> env, String key, InvalidConfigValueException.Collector problems) {
        check(env, key, problems, true);
    }

    private static void check(Map<String, String> env, String key, InvalidConfigValueException.Collector problems, boolean identifiers) {
        if (env == null) {
            return;
        }
        env.forEach((name, value) -> {
            Optional<String> nameRule = identifiers
                    ? Optional.of(IDENTIFIER_RULE).filter(rule -> name == null || !IDENTIFIER.matcher(name).matches())
                    : Optional.of(NAME_RULE).filter(rule -> !isName(name));
            if (nameRule.isPresent()) {
                // The rule reads "it must ..."; here it is about a name inside the map.
                problems.reject(key, printable(name), "a variable name" + nameRule.get().substring("it".length()));
            } else if (!isValue(value)) {
                problems.reject(key + "." + name, null, VALUE_RULE);
            }
        });
    }

    private static boolean isName(String name) {
        return name != null && !name.isEmpty() && name.indexOf('=') < 0 && name.indexOf('\0') < 0;
    }

    private static boolean isValue(String value) {
        return value != null && value.indexOf('\0') < 0;
    }

    private static void requireValue(String name, String value, String where) {
        if (!isValue(value)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, where + " variable " + name + " has an invalid value; "
                    + VALUE_RULE + ".");
        }
    }

    private static String printable(String name) {
        return name == null ? null : name.replace("\0", "\\0");
    }
}
