package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.ProviderContext;

import java.nio.file.Path;
import java.util.Optional;

/** A provider context with no host objects, for tests and the benchmark. */
record TestProviderContext(String owner, Path stateDirectory) implements ProviderContext {

    @Override
    public <T> Optional<T> lookup(Class<T> type) {
        return Optional.empty();
    }
}
