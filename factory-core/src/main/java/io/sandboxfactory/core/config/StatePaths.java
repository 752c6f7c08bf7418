package io.sandboxfactory.core.config;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.HostPaths;
import io.sandboxfactory.core.FactoryConfigurationException;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/** Turns a configured directory string into an absolute path: {@code ~} expands to home, relative resolves against a base. */
public final class StatePaths {

    private StatePaths() {
    }

    /** Fails with a {@link FactoryConfigurationException} naming {@code text} when it is no valid path. */
    public static Path resolve(String text, Path home, Path base) {
        try {
            return base.resolve(HostPaths.expandHome(text, home)).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new FactoryConfigurationException(StandardErrorCode.INVALID_CONFIG, "State directory '" + text + "' is not a valid path: "
                    + e.getReason() + ".", e);
        }
    }
}
