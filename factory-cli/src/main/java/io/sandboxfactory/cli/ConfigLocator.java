package io.sandboxfactory.cli;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finds the config file: {@code --config}, else {@code ./factory.yaml} / {@code ./factory.yml} /
 * {@code ./factory.json}, else {@code $XDG_CONFIG_HOME/sandbox-factory/config.yaml} (XDG default
 * {@code ~/.config}). None at all means the embedded default: the local provider.
 */
final class ConfigLocator {

    private final Path workingDirectory;
    private final Map<String, String> environment;
    private final Path home;

    ConfigLocator(Path workingDirectory, Map<String, String> environment, Path home) {
        this.workingDirectory = workingDirectory;
        this.environment = environment;
        this.home = home;
    }

    Optional<Path> locate(Path explicit) {
        if (explicit != null) {
            Path file = workingDirectory.resolve(explicit);
            if (!Files.isRegularFile(file)) {
                throw new BadInputException("Config file '" + explicit + "' does not exist or is not a regular file.");
            }
            return Optional.of(file);
        }
        for (String name : List.of("factory.yaml", "factory.yml", "factory.json")) {
            Path candidate = workingDirectory.resolve(name);
            if (Files.isRegularFile(candidate)) {
                return Optional.of(candidate);
            }
        }
        String xdg = environment.get("XDG_CONFIG_HOME");
        Path configHome = xdg == null || xdg.isBlank() ? home.resolve(".config") : Path.of(xdg);
        for (String name : List.of("config.yaml", "config.yml", "config.json")) {
            Path candidate = configHome.resolve("sandbox-factory").resolve(name);
            if (Files.isRegularFile(candidate)) {
                return Optional.of(candidate);
            }
        }
        return Optional.empty();
    }
}
