package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.ProviderContext;

import java.nio.file.Path;
import java.util.Optional;

/** The smallest {@link ProviderContext}: no host objects, a state directory, owner "test". */
record TestProviderContext(Path stateDirectory) implements ProviderContext {

    @Override
    public <T> Optional<T> lookup(Class<T> type) {
        return Optional.empty();
    }

    @Override
    public String owner() {
        return "test";
    }
}
