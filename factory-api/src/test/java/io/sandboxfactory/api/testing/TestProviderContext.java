package io.sandboxfactory.api.testing;

import io.sandboxfactory.api.ProviderContext;

import java.nio.file.Path;
import java.util.Optional;

/**
 * The smallest {@link ProviderContext}: a state directory, an owner, no host objects. Shared by the
 * modules' tests through factory-api's test-jar.
 */
public record TestProviderContext(Path stateDirectory, String owner) implements ProviderContext {

    /** Owner {@code test}. */
    public TestProviderContext(Path stateDirectory) {
        this(stateDirectory, "test");
    }

    @Override
    public <T> Optional<T> lookup(Class<T> type) {
        return Optional.empty();
    }
}
