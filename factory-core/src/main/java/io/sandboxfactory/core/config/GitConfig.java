package io.sandboxfactory.core.config;

import io.sandboxfactory.api.InvalidConfigValueException;

import java.util.Objects;

/**
 * The {@code git:} section: how git behaves inside every session's sandbox, whatever the provider.
 *
 * @param user the identity commits made in a session carry ({@code git.user.name}, {@code git.user.email})
 */
public record GitConfig(User user) {

    /** The author name when neither the configuration nor the host's {@code git config --global} gives one. */
    public static final String DEFAULT_NAME = "Sandbox Factory";
    /** The author email when neither the configuration nor the host's {@code git config --global} gives one. */
    public static final String DEFAULT_EMAIL = "factory@localhost";

    public GitConfig {
        user = Objects.requireNonNullElse(user, User.UNSET);
    }

    /** Nothing configured: the host's identity, else {@value #DEFAULT_NAME} &lt;{@value #DEFAULT_EMAIL}&gt;. */
    public static GitConfig defaults() {
        return new GitConfig(User.UNSET);
    }

    /** {@code git.user.name} and {@code git.user.email} set to these values. */
    public static GitConfig of(String name, String email) {
        return new GitConfig(new User(name, email));
    }

    /**
     * A git identity, each part optional until the configuration is resolved. A value is one line of
     * text: git writes it into commit headers, where a line break or NUL would forge or break
     * the header, and strips {@code <} and {@code >} around an email.
     *
     * @param name {@code user.name}; null when not set
     * @param email {@code user.email}; null when not set
     */
    public record User(String name, String email) {

        static final User UNSET = new User(null, null);
        /** What a value must be, as the clause of an error. */
        public static final String RULE = "it must be one non-blank line without NUL, '<' or '>'";

        public User {
            InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
            check("name", name, problems);
            check("email", email, problems);
            problems.throwIfAny();
        }

        /** Whether {@code value} may be a part of a git identity. */
        public static boolean valid(String value) {
            return !value.isBlank() && value.chars().noneMatch(c -> c == '\n' || c == '\r' || c == 0 || c == '<' || c == '>');
        }

        private static void check(String key, String value, InvalidConfigValueException.Collector problems) {
            if (value != null && !valid(value)) {
                problems.reject(key, visible(value), RULE);
            }
        }

        /** The value with its line breaks and NULs written as escapes, so the error stays one line. */
        static String visible(String value) {
            return value.replace("\\", "\\\\").replace("\n", "\\n").replace("\r", "\\r").replace("\0", "\\0");
        }
    }
}
