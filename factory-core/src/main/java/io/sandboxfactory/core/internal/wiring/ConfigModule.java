package io.sandboxfactory.core.internal.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Scopes;
import com.google.inject.Singleton;
import io.sandboxfactory.api.SandboxProvider;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.internal.config.ConfigExplainer;
import io.sandboxfactory.core.internal.config.ConfigResolver;
import io.sandboxfactory.core.internal.config.FactoryConfigLoader;
import io.sandboxfactory.core.internal.config.ResolvedConfig;
import io.sandboxfactory.core.internal.discovery.DiscoveredProviders;
import io.sandboxfactory.core.internal.discovery.ErrorCodeOwners;
import io.sandboxfactory.core.internal.discovery.ProviderDiscovery;

import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Discovery and configuration: the providers the host's class loader sees, and the config resolved
 * against them (builder &gt; environment &gt; file or {@code FactoryConfig} &gt; defaults). Reads
 * only; what {@code effectiveConfig()} needs, and what every other module starts from.
 */
public final class ConfigModule extends AbstractModule {

    private final FactorySettings settings;

    public ConfigModule(FactorySettings settings) {
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    @Override
    protected void configure() {
        binder().requireExplicitBindings();
        binder().disableCircularProxies();
        // The host's values: nothing Guice could make.
        bind(FactorySettings.class).toInstance(settings);
        bindScope(Once.class, new OnceScope());
        bind(ProviderDiscovery.class).in(Scopes.SINGLETON);
        bind(ConfigExplainer.class).in(Scopes.SINGLETON);
    }

    @Provides
    @Singleton
    HostObjects hostObjects(FactorySettings settings) {
        return settings.hostObjects();
    }

    @Provides
    @Singleton
    HostEnvironment environment(FactorySettings settings) {
        return new HostEnvironment(settings.environment());
    }

    @Provides
    @Once
    DiscoveredProviders providers(ProviderDiscovery discovery, FactorySettings settings, ErrorCodeOwners codeOwners) {
        return discovery.discover(settings.classLoader(), codeOwners);
    }

    /** Who owns each error code name: the framework, the host, then providers and stores as discovered. */
    @Provides
    @Singleton
    ErrorCodeOwners errorCodeOwners(FactorySettings settings) {
        return new ErrorCodeOwners(settings.hostErrorCodes());
    }

    /** Selecting the provider is injection: {@link SelectedProvider} picks from this map by the configured name. */
    @Provides
    @Singleton
    Map<String, SandboxProvider<?>> providersByName(DiscoveredProviders discovered) {
        Map<String, SandboxProvider<?>> byName = new LinkedHashMap<>();
        discovered.all().forEach(provider -> byName.put(provider.name(), provider.provider()));
        return Collections.unmodifiableMap(byName);
    }

    @Provides
    @Once
    ConfigResolution resolution(FactorySettings settings, DiscoveredProviders discovered) {
        Path home = Path.of(System.getProperty("user.home"));
        ConfigResolver resolver = new ConfigResolver(home, System.getProperty("user.name"), settings.workingDirectory());
        if (settings.configFile().isPresent()) {
            ResolvedConfig resolved = resolver.resolveFile(new FactoryConfigLoader(home), settings.configFile().get(),
                    settings.environment(), settings.overrides(), discovered);
            return new ConfigResolution(discovered, FactoryConfig.defaults(), settings.overrides(), settings.environment(), resolved);
        }
        FactoryConfig base = settings.configObject().orElse(FactoryConfig.defaults());
        String origin = settings.configObject().isPresent() ? "the FactoryConfig given to the factory builder" : "the built-in defaults";
        ResolvedConfig resolved = resolver.resolve(base, origin, settings.environment(), settings.overrides(), discovered);
        return new ConfigResolution(discovered, base, settings.overrides(), settings.environment(), resolved);
    }

    @Provides
    @Singleton
    ResolvedConfig config(ConfigResolution resolution) {
        return resolution.resolved();
    }
}
