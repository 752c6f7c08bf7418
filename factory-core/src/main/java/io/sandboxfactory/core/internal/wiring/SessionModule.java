package io.sandboxfactory.core.internal.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Scopes;
import com.google.inject.Singleton;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.core.internal.config.ResolvedConfig;
import io.sandboxfactory.core.config.EgressConfig;
import io.sandboxfactory.core.config.Timeouts;
import io.sandboxfactory.core.egress.EgressProxy;
import io.sandboxfactory.core.egress.EgressResolver;
import io.sandboxfactory.core.egress.EgressSessions;
import io.sandboxfactory.core.egress.EgressMode;
import io.sandboxfactory.core.internal.session.EgressChannels;
import io.sandboxfactory.core.internal.session.EgressJournal;
import io.sandboxfactory.core.internal.session.EgressRules;
import io.sandboxfactory.core.internal.gateway.GitGateway;
import io.sandboxfactory.core.internal.git.ObjectCache;
import io.sandboxfactory.core.internal.git.RetryPolicy;
import io.sandboxfactory.core.internal.retire.OrphanSweeper;
import io.sandboxfactory.core.internal.retire.Retirements;
import io.sandboxfactory.core.internal.retire.SessionRetirementCoordinator;
import io.sandboxfactory.core.internal.session.CommandActivity;
import io.sandboxfactory.core.internal.session.CommandJournal;
import io.sandboxfactory.core.internal.session.InFlightStarts;
import io.sandboxfactory.core.internal.session.RepositoryLocator;
import io.sandboxfactory.core.internal.session.SessionDefaults;
import io.sandboxfactory.core.internal.session.SessionMemo;
import io.sandboxfactory.core.internal.session.OpenPipelineModule;
import io.sandboxfactory.core.internal.session.SessionOpener;
import io.sandboxfactory.core.internal.session.SessionProvider;
import io.sandboxfactory.core.internal.session.SessionServices;
import io.sandboxfactory.core.internal.session.SessionTimeouts;
import io.sandboxfactory.core.internal.store.SessionLeases;
import io.sandboxfactory.core.internal.template.AutoBuilds;
import io.sandboxfactory.core.internal.template.TemplateBuilder;
import io.sandboxfactory.core.internal.template.TemplateSettings;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.store.api.LeaseOwner;
import io.sandboxfactory.store.api.SessionStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Optional;

/**
 * The session machinery of one factory: the open pipeline, retirement, templates, the journal.
 * Every setting comes from the resolved config or from what the host set on the builder ({@link
 * FactorySettings}); closeable objects are registered with the factory's {@link OwnedResources}
 * as they are made (see {@link FactoryModule}), so {@code close()} closes them in reverse order.
 */
public final class SessionModule extends AbstractModule {

    /** How often running starts check whether another process retired their session. */
    private static final Duration RETIREMENT_WATCH = Duration.ofMillis(250);
    private static final Logger LOG = LoggerFactory.getLogger(SessionModule.class);

    @Override
    protected void configure() {
        bind(SessionMemo.class).in(Scopes.SINGLETON);
        bind(SessionServices.class).in(Scopes.SINGLETON);
        bind(CommandActivity.class).in(Scopes.SINGLETON);
        bind(SessionRetirementCoordinator.class).in(Scopes.SINGLETON);
        bind(EgressSessions.class).in(Scopes.SINGLETON);
        bind(EgressRules.class).in(Scopes.SINGLETON);
        install(new OpenPipelineModule());
    }

    @Provides
    @Singleton
    SessionListener listener(FactorySettings settings) {
        return settings.listener();
    }

    @Provides
    @Singleton
    Clock clock() {
        return Clock.systemUTC();
    }

    @Provides
    @Singleton
    SessionTimeouts timeouts(ResolvedConfig config) {
        Timeouts timeouts = config.timeouts();
        return new SessionTimeouts(timeouts.probe(), timeouts.network(), timeouts.checkout(), timeouts.setup(), timeouts.teardown());
    }

    @Provides
    @Singleton
    SessionLeases leases(SessionStore store, ResolvedConfig config) {
        Duration ttl = config.store().leaseTtl();
        // Waiters poll a tenth of the lease's life, within 20–200 ms: quick hand-over without hammering the store.
        return new SessionLeases(store, LeaseOwner.forThisProcess(), ttl, Duration.ofMillis(Math.min(200, Math.max(20, ttl.toMillis() / 10))));
    }

    @Provides
    @Singleton
    SessionDefaults defaults(ResolvedConfig config, SessionTimeouts timeouts, FactorySettings host) {
        return new SessionDefaults(config.repository().defaultBaseBranch(), config.repository().setup(), config.repository().teardown(),
                RepositoryLocator.of(config.repository()), host.repositoryToken(), timeouts, RetryPolicy.defaults(), config.git().user(),
                config.repository().setupSecrets(), host.environment());
    }

    @Provides
    @Singleton
    InFlightStarts inFlightStarts(SessionStore store) {
        InFlightStarts inFlight = new InFlightStarts();
        // Cut a start here short soon after another process retires its session.
        inFlight.watchRetirements(store, RETIREMENT_WATCH);
        return inFlight;
    }

    @Provides
    @Singleton
    CommandJournal journal(SessionStore store, ResolvedConfig config, Clock clock, FactorySettings host) {
        return new CommandJournal(store, host.commandOrigin(), host.journalSize().orElse(config.journal().maxEntries()), clock);
    }

    @Provides
    @Singleton
    EgressConfig egressConfig(ResolvedConfig config) {
        return config.egress();
    }

    /** One proxy for every session of the factory; it binds its port only when a session in mode allowlist starts. */
    @Provides
    @Singleton
    EgressProxy egressProxy(EgressSessions sessions, EgressConfig config, CommandJournal journal, Clock clock) {
        return new EgressProxy(sessions, new EgressResolver(config.resolvedAddresses()), new EgressJournal(journal), clock,
                config.proxySocket());
    }

    /** Sandboxes that see host directories reach the proxy through a channel of their session; others at its address. */
    @Provides
    @Singleton
    EgressChannels egressChannels(ResolvedConfig config, EgressProxy proxy, FactorySandbox provider) {
        return new EgressChannels(config.stateDirectory(), proxy, config.egress().egressMode() == EgressMode.ALLOWLIST
                && provider.capabilities().contains(SandboxCapability.HOST_DIRECTORIES));
    }

    @Provides
    @Singleton
    TemplateSettings templateSettings(ResolvedConfig config) {
        return new TemplateSettings(true, config.repository().templateInputs());
    }

    @Provides
    @Singleton
    Optional<ObjectCache> objectCache(ResolvedConfig config, SessionTimeouts timeouts, FactorySandbox provider) {
        if (!config.cache().enabled()) {
            return Optional.empty();
        }
        // The mirrors live on the host: only sandboxes that can see host directories can borrow from them.
        if (!provider.capabilities().contains(SandboxCapability.HOST_DIRECTORIES)) {
            LOG.info("cache.enabled is set, but the sandboxes of provider '{}' cannot see host directories; clones go without the"
                    + " git object cache.", config.provider());
            return Optional.empty();
        }
        return Optional.of(new ObjectCache(config.stateDirectory().resolve("git-cache"), timeouts.network()));
    }

    @Provides
    @Singleton
    GitGateway gitGateway(ResolvedConfig config, SessionTimeouts timeouts, FactorySandbox provider) {
        return new GitGateway(config.stateDirectory(), timeouts.network(), config.repository().exposeToken(),
                config.repository().pushNamespace(), provider.capabilities().contains(SandboxCapability.HOST_DIRECTORIES),
                provider.capabilities().contains(SandboxCapability.STREAMS), config.provider());
    }

    @Provides
    @Singleton
    SessionProvider sessionProvider(ResolvedConfig config, FactorySandbox provider) {
        return new SessionProvider(config.provider(), provider);
    }

    @Provides
    @Singleton
    Retirements retirements(SessionRetirementCoordinator coordinator, SessionStore store, SessionMemo memo, FactorySandbox provider,
                            SessionOpener opener, CommandActivity activity, ResolvedConfig config, Clock clock, GitGateway gateway,
                            EgressChannels egressChannels) {
        return new Retirements(coordinator, store, memo, config.provider(), provider, opener::open, activity, config.lifecycle(), clock,
                gateway, egressChannels);
    }

    @Provides
    @Singleton
    TemplateBuilder templates(ResolvedConfig config, FactorySandbox provider, SessionOpener opener, SessionStore store,
                              SessionDefaults defaults, TemplateSettings settings, Retirements retirements, Clock clock) {
        return new TemplateBuilder(config.provider(), provider, opener, store, defaults, settings, id -> retirements.retire(id, RetireMode.DESTROY), clock);
    }

    @Provides
    @Singleton
    AutoBuilds autoBuilds(TemplateBuilder templates, ResolvedConfig config) {
        // A build in flight when the factory closes may finish its setup and snapshot first.
        return new AutoBuilds(templates, config.templates().autoBuild(), config.timeouts().setup().plus(Duration.ofMinutes(5)));
    }

    @Provides
    @Singleton
    OrphanSweeper sweeper(ResolvedConfig config, FactorySandbox provider, SessionStore store, SessionMemo memo) {
        return new OrphanSweeper(config.provider(), provider, store, memo);
    }
}
