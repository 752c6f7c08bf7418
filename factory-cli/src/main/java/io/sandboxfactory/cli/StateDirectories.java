package io.sandboxfactory.cli;

import io.sandboxfactory.core.config.StatePaths;

import java.nio.file.Path;
import java.util.Map;

/**
 * The state directory a command line names: {@code --state-dir}, else {@code $FACTORY_STATE_DIR},
 * else {@code ~/.sandbox-factory}. An invalid {@code $FACTORY_STATE_DIR} fails with the factory's
 * own {@code FactoryConfigurationException}.
 */
public final class StateDirectories {

    private StateDirectories() {
    }

    public static Path named(Path option, Map<String, String> environment, Path workingDirectory, Path home) {
        if (option != null) {
            return workingDirectory.resolve(option).normalize();
        }
        String fromEnv = environment.get("FACTORY_STATE_DIR");
        if (fromEnv != null && !fromEnv.isBlank()) {
            // As the factory reads it, so that the daemon's socket lies in the state directory the factory uses.
            return StatePaths.resolve(fromEnv, home, workingDirectory);
        }
        return home.resolve(".sandbox-factory");
    }
}
