package io.sandboxfactory.api.support;

import java.util.List;
import java.util.regex.Pattern;

/**
 * Shell quoting of command arguments, as {@link io.sandboxfactory.api.CommandExecutor} specifies it.
 *
 * @since 0.1.0
 */
public final class Sandboxes {

    private static final Pattern BARE = Pattern.compile("[A-Za-z0-9._\\-/=:@]+");

    private Sandboxes() {
    }

    /**
     * Quotes one argument for a POSIX shell: bare when it matches {@code [A-Za-z0-9._\-/=:@]+},
     * else single-quoted with embedded quotes written as {@code '\''}.
     */
    public static String quote(String arg) {
        if (BARE.matcher(arg).matches()) {
            return arg;
        }
        return "'" + arg.replace("'", "'\\''") + "'";
    }

    /** {@code command} followed by each argument, quoted, separated by single spaces. */
    public static String join(String command, List<String> args) {
        StringBuilder line = new StringBuilder(command);
        for (String arg : args) {
            line.append(' ').append(quote(arg));
        }
        return line.toString();
    }
}
