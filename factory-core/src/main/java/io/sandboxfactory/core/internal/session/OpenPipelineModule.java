package io.sandboxfactory.core.internal.session;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Scopes;
import com.google.inject.Singleton;
import io.sandboxfactory.core.internal.git.Freshness;
import io.sandboxfactory.core.internal.git.RepositoryMaterializer;
import io.sandboxfactory.core.internal.git.SessionBranch;
import io.sandboxfactory.core.internal.setup.SetupGate;
import io.sandboxfactory.core.internal.template.TemplateSelector;

/**
 * The session open pipeline: its steps, its coordinator and what it hands out. Everything it needs
 * from the factory ({@link SessionServices}, {@link SessionDefaults}, {@link SessionProvider},
 * {@link SessionMemo}, the template settings and builds, the object cache) is bound by the module
 * that installs it.
 */
public final class OpenPipelineModule extends AbstractModule {

    @Override
    protected void configure() {
        bind(ValidateSpec.class).in(Scopes.SINGLETON);
        bind(GenerationCheck.class).in(Scopes.SINGLETON);
        bind(TakeLease.class).in(Scopes.SINGLETON);
        bind(AcquireSandbox.class).in(Scopes.SINGLETON);
        bind(ApplyEgress.class).in(Scopes.SINGLETON);
        bind(MaterializeRepositories.class).in(Scopes.SINGLETON);
        bind(CheckoutSessionBranch.class).in(Scopes.SINGLETON);
        bind(RunSetupGates.class).in(Scopes.SINGLETON);
        bind(RecordStart.class).in(Scopes.SINGLETON);
        bind(OpenPipeline.class).in(Scopes.SINGLETON);
        bind(StartFlights.class).in(Scopes.SINGLETON);

        bind(SandboxInstances.class).in(Scopes.SINGLETON);
        bind(SessionTemplates.class).in(Scopes.SINGLETON);
        bind(SessionRevival.class).in(Scopes.SINGLETON);
        bind(GuardedStart.class).in(Scopes.SINGLETON);
        bind(SessionOpener.class).in(Scopes.SINGLETON);
        bind(SetupGate.class).in(Scopes.SINGLETON);
    }

    @Provides
    @Singleton
    WorkspaceProbe probe(SessionDefaults defaults) {
        return new WorkspaceProbe(defaults.timeouts().probe());
    }

    @Provides
    @Singleton
    RepositoryMaterializer materializer(SessionDefaults defaults, SessionProvider provider) {
        return new RepositoryMaterializer(defaults.retry(), defaults.timeouts().network(), provider.name(), defaults.gitIdentity());
    }

    @Provides
    @Singleton
    SessionBranch branches(SessionDefaults defaults) {
        return new SessionBranch(defaults.timeouts().checkout());
    }

    @Provides
    @Singleton
    Freshness freshness(SessionDefaults defaults) {
        return new Freshness(defaults.timeouts().checkout());
    }

    @Provides
    @Singleton
    TemplateSelector templateSelector(SessionProvider provider) {
        return new TemplateSelector(provider.name(), provider.sandboxes());
    }
}
