package io.sandboxfactory.cli;

import java.nio.file.Path;
import java.util.Map;

/** The state directory a command line names: {@code --state-dir}, else {@code $FACTORY_STATE_DIR}, else {@code ~/.sandbox-factory}. */
final class StateDirectories {

    private StateDirectories() {
    }

    static Path named(Path option, Map<String, String> environment, Path workingDirectory, Path home) {
        if (option != null) {
            return workingDirectory.resolve(option).normalize();
        }
        String fromEnv = environment.get("FACTORY_STATE_DIR");
        if (fromEnv != null && !fromEnv.isBlank()) {
            if (fromEnv.equals("~") || fromEnv.startsWith("~/")) {
                return home.resolve(fromEnv.substring(Math.min(2, fromEnv.length()))).normalize();
            }
            return workingDirectory.resolve(fromEnv).normalize();
        }
        return home.resolve(".sandbox-factory");
    }
}
