package io.sandboxfactory.core.wiring;

import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.core.config.ResolvedConfig;
import jakarta.inject.Inject;

import java.nio.file.Path;
import java.util.Optional;

/** The {@link ProviderContext} a factory opens its provider with: its host objects, state directory and owner. */
public final class FactoryProviderContext implements ProviderContext {

    private final HostObjects hostObjects;
    private final Path stateDirectory;
    private final String owner;

    @Inject
    public FactoryProviderContext(ResolvedConfig config, HostObjects hostObjects) {
        this.hostObjects = hostObjects;
        this.stateDirectory = config.stateDirectory();
        this.owner = config.owner();
    }

    @Override
    public <T> Optional<T> lookup(Class<T> type) {
        return hostObjects.lookup(type);
    }

    @Override
    public Path stateDirectory() {
        return stateDirectory;
    }

    @Override
    public String owner() {
        return owner;
    }
}
