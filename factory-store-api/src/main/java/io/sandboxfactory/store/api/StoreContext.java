package io.sandboxfactory.store.api;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link SessionStoreProvider} gets from the factory besides its config.
 *
 * @param stateDirectory the factory's state directory (exists)
 * @param environment the host environment the factory was built with; {@code store.passwordEnv}
 *     names a variable here
 *
 * @since 0.1.0
 */
public record StoreContext(Path stateDirectory, Map<String, String> environment) {

    public StoreContext {
        Objects.requireNonNull(stateDirectory, "stateDirectory");
        environment = Map.copyOf(environment);
    }

    /** The value of variable {@code name}, when set and not blank. */
    public Optional<String> variable(String name) {
        return Optional.ofNullable(environment.get(name)).filter(v -> !v.isBlank());
    }

    @Override
    public String toString() {
        return "StoreContext[stateDirectory=" + stateDirectory + ", environment=<" + environment.size() + " variables>]";
    }
}
