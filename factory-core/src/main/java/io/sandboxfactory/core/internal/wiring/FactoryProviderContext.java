package io.sandboxfactory.core.internal.wiring;

import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.core.internal.config.ResolvedConfig;
import jakarta.inject.Inject;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/** The {@link ProviderContext} a factory opens its provider with: its host objects, state directory, owner and environment. */
final class FactoryProviderContext implements ProviderContext {

    private final HostObjects hostObjects;
    private final Path stateDirectory;
    private final String owner;
    private final Map<String, String> environment;
    private final Optional<InetSocketAddress> egressProxy;

    @Inject
    public FactoryProviderContext(ResolvedConfig config, HostObjects hostObjects, HostEnvironment environment) {
        this.hostObjects = hostObjects;
        this.stateDirectory = config.stateDirectory();
        this.owner = config.owner();
        this.environment = environment.variables();
        this.egressProxy = config.egress().proxySocket();
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

    @Override
    public Map<String, String> environment() {
        return environment;
    }

    @Override
    public Optional<InetSocketAddress> egressProxy() {
        return egressProxy;
    }
}
