package io.sandboxfactory.api.error;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One failure code: {@link #name()} is the stable string of {@code --json} output, MCP results and
 * the command journal, {@link #kind()} who can fix the failure (the CLI's exit code comes from it),
 * {@link #meaning()} the one line {@code docs/errors.md} gives it. Codes are defined by the module
 * that raises them, in an enum implementing {@link ErrorCodeSupplier}: the framework's are {@link
 * StandardErrorCode}. It is a supplier of itself, so an exception can be rethrown with the code of
 * another.
 *
 * @param name upper case letters, digits and underscores, starting with a letter, e.g. {@code DESTROYED}
 * @param kind who can fix a failure with this code
 * @param meaning what failed and what to do about it, in one line
 * @since 0.1.0
 */
public record ErrorCode(String name, ErrorKind kind, String meaning) implements ErrorCodeSupplier {

    /** What {@link #name()} must match. */
    public static final Pattern NAME = Pattern.compile("[A-Z][A-Z0-9_]*");

    public ErrorCode {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(meaning, "meaning");
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("Error code name '" + name + "' must match " + NAME.pattern() + ".");
        }
        if (meaning.isBlank() || meaning.contains("\n")) {
            throw new IllegalArgumentException("Error code " + name + " needs a meaning of one line.");
        }
    }

    @Override
    public ErrorCode toErrorCode() {
        return this;
    }

    @Override
    public String toString() {
        return name;
    }
}
