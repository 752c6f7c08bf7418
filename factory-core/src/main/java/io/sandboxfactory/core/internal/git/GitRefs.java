package io.sandboxfactory.core.internal.git;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.internal.config.InputText;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Validates branch names before any git command runs (design §5.7). The rules are stricter than
 * git's own, so every name accepted here is also accepted by {@code git check-ref-format --branch}:
 * length 1–255; only {@code [A-Za-z0-9_./-]}; not starting with {@code -} or {@code /}; not ending
 * with {@code /} or {@code .}; no {@code ..} and no {@code //}; no component starting with {@code .}
 * or ending with {@code .lock} in any case; not {@code HEAD}.
 *
 * <p>{@code a.LOCK} is refused although git accepts it: on a case-insensitive file system
 * {@code refs/heads/a.LOCK} is the lock file of {@code refs/heads/a}.
 */
public final class GitRefs {

    /** Longest accepted name. */
    public static final int MAX_LENGTH = 255;

    private static final Pattern ALLOWED = Pattern.compile("[A-Za-z0-9_./-]+");

    private GitRefs() {
    }

    /** Whether {@code name} is a safe branch name. */
    public static boolean isValidGitRef(String name) {
        return problem(name).isEmpty();
    }

    /**
     * Returns {@code name} when valid, else throws {@link IllegalArgumentException} with one
     * sentence naming the value and the rule it breaks.
     *
     * @param what how to call the value in the message, e.g. {@code "Branch"} or {@code "Base branch"}
     */
    public static String requireValid(String name, String what) {
        Optional<String> problem = problem(name);
        if (problem.isPresent()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_REF, what + " '" + InputText.shown(name) + "' is not a valid git branch name: " + problem.get() + ".");
        }
        return name;
    }

    /** The first rule {@code name} breaks, if any. */
    public static Optional<String> problem(String name) {
        if (name == null || name.isEmpty()) {
            return Optional.of("it must not be empty");
        }
        if (name.length() > MAX_LENGTH) {
            return Optional.of("it must be at most " + MAX_LENGTH + " characters long (it has " + name.length() + ")");
        }
        if (!ALLOWED.matcher(name).matches()) {
            return Optional.of("it may contain only letters, digits, '_', '.', '/' and '-'");
        }
        if (name.startsWith("-")) {
            return Optional.of("it must not start with '-'");
        }
        if (name.startsWith("/")) {
            return Optional.of("it must not start with '/'");
        }
        if (name.endsWith("/")) {
            return Optional.of("it must not end with '/'");
        }
        if (name.endsWith(".")) {
            return Optional.of("it must not end with '.'");
        }
        if (name.contains("..")) {
            return Optional.of("it must not contain '..'");
        }
        if (name.contains("//")) {
            return Optional.of("it must not contain '//'");
        }
        if (name.equals("HEAD")) {
            return Optional.of("'HEAD' is reserved");
        }
        for (String component : name.split("/")) {
            if (component.startsWith(".")) {
                return Optional.of("no path component may start with '.'");
            }
            if (component.toLowerCase(Locale.ROOT).endsWith(".lock")) {
                return Optional.of("no path component may end with '.lock' (in any case)");
            }
        }
        return Optional.empty();
    }
}
