package io.sandboxfactory.core.internal.wiring;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.SandboxProvider;
import io.sandboxfactory.core.internal.config.ResolvedConfig;
import io.sandboxfactory.core.internal.discovery.DiscoveredProviders;
import jakarta.inject.Inject;

import java.util.Map;


/**
 * The provider the config selects, picked from the discovered providers' map by name. Opening it is I/O that
 * may fail (a Docker engine down, a cluster unreachable): {@link #open()} reports that as a {@code
 * FactoryConfigurationException} naming the provider.
 */
public final class SelectedProvider {

    private final Map<String, SandboxProvider<?>> byName;
    private final DiscoveredProviders discovered;
    private final ResolvedConfig config;
    private final ProviderContext context;

    @Inject
    SelectedProvider(Map<String, SandboxProvider<?>> byName, DiscoveredProviders discovered, ResolvedConfig config,
                     ProviderContext context) {
        this.byName = byName;
        this.discovered = discovered;
        this.config = config;
        this.context = context;
    }

    /** The configured provider's name. */
    public String name() {
        return config.provider();
    }

    /** Opens the selected provider with its bound config and checks what it returned; the caller owns the result. */
    public FactorySandbox open() {
        String name = config.provider();
        SandboxProvider<?> provider = byName.get(name);
        if (provider == null) {
            discovered.require(name);
        }
        return ProviderOpener.open(name, provider, config.providerConfig(), context, config.providerOrigins());
    }
}
