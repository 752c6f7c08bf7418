package io.sandboxfactory.core;

import com.google.inject.AbstractModule;
import com.google.inject.CreationException;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Module;
import com.google.inject.ProvisionException;
import com.google.inject.Scopes;
import com.google.inject.Stage;
import com.google.inject.spi.Message;
import io.sandboxfactory.core.config.EffectiveConfig;
import io.sandboxfactory.core.internal.config.ConfigExplainer;
import io.sandboxfactory.core.internal.wiring.ConfigModule;
import io.sandboxfactory.core.internal.wiring.ConfigResolution;
import io.sandboxfactory.core.internal.wiring.FactoryModule;
import io.sandboxfactory.core.internal.wiring.FactorySettings;
import io.sandboxfactory.core.internal.wiring.OwnedResources;
import io.sandboxfactory.core.internal.wiring.SessionModule;

import java.util.Collection;
import java.util.List;
import java.util.function.Function;

/**
 * Makes a factory's one injector from its modules: discovery and configuration ({@link
 * ConfigModule}), the provider and the store ({@link FactoryModule}), the session machinery
 * ({@link SessionModule}). In {@code Stage.PRODUCTION} every singleton is made with the injector,
 * so a factory is ready, or fails, when it is built; a failure is the part's own exception (a
 * {@link FactoryConfigurationException} naming the bad value), not Guice's report, and whatever was
 * opened before it is closed.
 */
final class FactoryAssembly {

    private FactoryAssembly() {
    }

    static SandboxFactory build(FactorySettings settings) {
        // Made here, not by Guice: when making the injector fails half-way, what was opened must still be closed.
        OwnedResources resources = new OwnedResources();
        try {
            Injector injector = create(new ConfigModule(settings), new FactoryModule(resources), new SessionModule(), new AbstractModule() {
                @Override
                protected void configure() {
                    bind(FactorySessions.class).in(Scopes.SINGLETON);
                }
            });
            return new SandboxFactory(injector, resources);
        } catch (RuntimeException e) {
            try {
                resources.close();
            } catch (RuntimeException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** The configuration {@link #build} would use, every value with its source; opens and creates nothing. */
    static EffectiveConfig explain(FactorySettings settings, Function<String, String> overrideSource) {
        Injector injector = create(new ConfigModule(settings));
        ConfigResolution resolution;
        try {
            resolution = injector.getInstance(ConfigResolution.class);
        } catch (ProvisionException e) {
            throw causeOf(e.getErrorMessages(), e);
        }
        return injector.getInstance(ConfigExplainer.class).explain(resolution.resolved(), resolution.base(), settings.configFile(), resolution.environment(),
                resolution.overrides(), resolution.discovered(), overrideSource);
    }

    private static Injector create(Module... modules) {
        try {
            return Guice.createInjector(Stage.PRODUCTION, List.of(modules));
        } catch (CreationException e) {
            throw causeOf(e.getErrorMessages(), e);
        }
    }

    /** The part's own exception behind Guice's report (a bad value, a provider that could not be opened), else the report. */
    private static RuntimeException causeOf(Collection<Message> messages, RuntimeException report) {
        for (Message message : messages) {
            if (message.getCause() instanceof RuntimeException cause) {
                return cause;
            }
        }
        return report;
    }
}
