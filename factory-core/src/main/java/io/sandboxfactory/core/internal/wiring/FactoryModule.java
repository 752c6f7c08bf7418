package io.sandboxfactory.core.internal.wiring;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.internal.discovery.ErrorCodeOwners;
import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Scopes;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.core.FactoryConfigurationException;
import io.sandboxfactory.core.internal.config.ResolvedConfig;
import io.sandboxfactory.core.internal.store.SessionStores;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.store.api.SessionStoreProvider;
import io.sandboxfactory.store.api.StoreContext;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;
import java.util.Optional;

/**
 * The selected provider, opened, and the session store, in the order a factory may create things:
 * the store type is chosen (an unknown one fails like an unknown provider) before the provider is
 * opened, the state directory is created only once the provider opened, and the store is opened in
 * it. The dependencies between these bindings say that order, and each is tried {@link Once}: a
 * provider that failed to open is not opened again for each part that needs it. Everything
 * closeable made here is registered with {@link OwnedResources} as it is made; a store the host
 * gave is never closed.
 */
public final class FactoryModule extends AbstractModule {

    private final OwnedResources resources;

    /**
     * @param resources where closeable objects are registered; made by the caller, who must close
     *     what was opened when making the injector fails half-way
     */
    public FactoryModule(OwnedResources resources) {
        this.resources = Objects.requireNonNull(resources, "resources");
    }

    /**
     * The state directory, created.
     *
     * @param path the absolute directory
     */
    public record StateDirectory(Path path) {
    }

    /**
     * The store the factory opens itself; empty when the host gave its own.
     *
     * @param provider the store type's provider
     */
    record StoreChoice(Optional<SessionStoreProvider> provider) {
    }

    @Override
    protected void configure() {
        bind(OwnedResources.class).toInstance(resources);
        bindListener(OwnedResources.closeables(), resources.listener());
        bind(FactoryProviderContext.class).in(Scopes.SINGLETON);
        bind(ProviderContext.class).to(FactoryProviderContext.class);
        bind(SelectedProvider.class).in(Scopes.SINGLETON);
    }

    @Provides
    @Once
    StoreChoice storeChoice(FactorySettings settings, ResolvedConfig config, ErrorCodeOwners codeOwners) {
        return new StoreChoice(settings.sessionStore().isPresent() ? Optional.empty()
                : Optional.of(SessionStores.discover(settings.classLoader(), codeOwners).require(config.store())));
    }

    /** Opened only once the store type is known to exist; I/O (an engine, a cluster), so its failure names the provider. */
    @Provides
    @Once
    FactorySandbox provider(SelectedProvider selected, StoreChoice store) {
        return selected.open();
    }

    @Provides
    @Once
    StateDirectory stateDirectory(ResolvedConfig config, FactorySandbox opened) {
        Path directory = config.stateDirectory();
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw new FactoryConfigurationException(StandardErrorCode.STATE_DIRECTORY_FAILED, "State directory " + directory
                    + " could not be created: " + e.getMessage() + ".", e);
        }
        return new StateDirectory(directory);
    }

    @Provides
    @Once
    SessionStore store(FactorySettings settings, StoreChoice choice, ResolvedConfig config, StateDirectory directory,
                       HostEnvironment environment) {
        if (settings.sessionStore().isPresent()) {
            return settings.sessionStore().get();
        }
        return resources.own(choice.provider().orElseThrow().open(config.store(), new StoreContext(directory.path(),
                environment.variables())));
    }
}
