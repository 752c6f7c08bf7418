package io.sandboxfactory.api.support;

import java.nio.file.Path;

/**
 * Host paths as users write them in config and on the command line: {@code ~} is the home
 * directory and {@code ~/x} is {@code x} under it, as a shell expands them. {@code ~user} is not
 * expanded. The one place the framework and the providers expand it.
 *
 * @since 0.1.0
 */
public final class HostPaths {

    private HostPaths() {
    }

    /**
     * {@code text} with a leading {@code ~} or {@code ~/} replaced by {@code home}; any other text as
     * a path, unresolved.
     *
     * @throws java.nio.file.InvalidPathException when {@code text} is no valid path
     */
    public static Path expandHome(String text, Path home) {
        if (text.equals("~")) {
            return home;
        }
        if (text.startsWith("~/")) {
            return home.resolve(text.substring(2));
        }
        return Path.of(text);
    }

    /** {@link #expandHome(String, Path)} with this process's home directory ({@code user.home}). */
    public static Path expandHome(String text) {
        return expandHome(text, Path.of(System.getProperty("user.home")));
    }
}
