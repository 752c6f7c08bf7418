package io.sandboxfactory.core.testing;

import io.sandboxfactory.api.ProviderContext;

import java.nio.file.Path;
import java.util.Optional;

/** The smallest {@link ProviderContext}: a state directory, an owner, no host objects. */
public record TestProviderContext(Path stateDirectory, String owner) implements ProviderContext {

    @Override
    public <T> Optional<T> lookup(Class<T> type) {
        return Optional.empty();
    }
}
