package io.sandboxfactory.core.internal.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Scopes;
import com.google.inject.TypeLiteral;
import com.google.inject.multibindings.MapBinder;
import com.google.inject.util.Providers;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.SandboxProvider;
import io.sandboxfactory.core.internal.config.ResolvedConfig;
import io.sandboxfactory.core.discovery.DiscoveredProvider;
import io.sandboxfactory.core.internal.discovery.DiscoveredProviders;
import io.sandboxfactory.core.internal.session.SessionMemo;

import java.util.Map;
import java.util.Objects;

/**
 * The bindings of one factory. Explicit bindings only, no circular proxies, no I/O: everything it
 * binds was discovered and resolved before. Discovered providers feed a {@code MapBinder<String,
 * SandboxProvider<?>>}; {@link SelectedProvider} picks from that map by the configured name, so
 * selecting a provider is injection. The provider is opened after this injector exists, and the
 * session machinery lives in a child injector ({@link SessionModule}). Meant for {@code
 * Stage.PRODUCTION}, where singletons are made when the injector is.
 */
public final class FactoryModule extends AbstractModule {

    private final DiscoveredProviders providers;
    private final ResolvedConfig config;
    private final HostObjects hostObjects;
    private final HostEnvironment environment;

    public FactoryModule(DiscoveredProviders providers, ResolvedConfig config, HostObjects hostObjects,
                         Map<String, String> environment) {
        this.providers = Objects.requireNonNull(providers, "providers");
        this.config = Objects.requireNonNull(config, "config");
        this.hostObjects = Objects.requireNonNull(hostObjects, "hostObjects");
        this.environment = new HostEnvironment(environment);
    }

    @Override
    protected void configure() {
        binder().requireExplicitBindings();
        binder().disableCircularProxies();

        bind(DiscoveredProviders.class).toInstance(providers);
        bind(ResolvedConfig.class).toInstance(config);
        bind(HostObjects.class).toInstance(hostObjects);
        bind(HostEnvironment.class).toInstance(environment);
        bind(FactoryProviderContext.class).in(Scopes.SINGLETON);
        bind(ProviderContext.class).to(FactoryProviderContext.class);
        bind(SessionMemo.class).in(Scopes.SINGLETON);
        bind(SelectedProvider.class).in(Scopes.SINGLETON);

        MapBinder<String, SandboxProvider<?>> byName = MapBinder.newMapBinder(binder(),
                new TypeLiteral<String>() { }, new TypeLiteral<SandboxProvider<?>>() { });
        for (DiscoveredProvider provider : providers.all()) {
            // Through a provider, not toInstance: Guice must not inject into third-party objects.
            byName.addBinding(provider.name()).toProvider(Providers.of(provider.provider()));
        }
    }
}
