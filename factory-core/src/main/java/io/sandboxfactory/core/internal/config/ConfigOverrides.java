package io.sandboxfactory.core.internal.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * Settings given in code on the factory builder; they beat the environment and the file.
 *
 * @param provider the provider to select
 * @param stateDirectory the state directory
 * @param owner the owner of the sandboxes
 */
public record ConfigOverrides(Optional<String> provider, Optional<Path> stateDirectory, Optional<String> owner) {

    public ConfigOverrides {
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(stateDirectory, "stateDirectory");
        Objects.requireNonNull(owner, "owner");
    }

    /** No overrides. */
    public static ConfigOverrides none() {
        return new ConfigOverrides(Optional.empty(), Optional.empty(), Optional.empty());
    }
}
