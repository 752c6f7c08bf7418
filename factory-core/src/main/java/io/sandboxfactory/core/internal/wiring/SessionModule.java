package io.sandboxfactory.core.internal.wiring;

import com.google.inject.AbstractModule;
import com.google.inject.Provides;
import com.google.inject.Singleton;
import com.google.inject.Binding;
import com.google.inject.Key;
import com.google.inject.matcher.AbstractMatcher;
import com.google.inject.util.Providers;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.core.internal.config.ResolvedConfig;
import io.sandboxfactory.core.config.Timeouts;
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
import io.sandboxfactory.core.internal.session.SessionOpener;
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
import jakarta.inject.Provider;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The session machinery of one factory, in a child injector of {@link FactoryModule}'s: made after
 * the provider is open and the store is open, because both do I/O and their failures are reported
 * as the factory's own errors, not as injection failures. Every setting comes from the resolved
 * config; every closeable object made here is registered with the factory's {@link OwnedResources}
 * as it is made, so {@code close()} closes them in reverse order.
 */
public final class SessionModule extends AbstractModule {

    /** How often running starts check whether another process retired their session. */
    private static final Duration RETIREMENT_WATCH = Duration.ofMillis(250);
    private static final Logger LOG = LoggerFactory.getLogger(SessionModule.class);

    /** Made elsewhere: their owner (the factory or the host) decides whether they are closed. */
    private static final Set<Key<?>> HANDED_IN = Set.of(Key.get(FactorySandbox.class), Key.get(SessionStore.class),
            Key.get(SessionListener.class), Key.get(Clock.class), Key.get(OwnedResources.class));

    private final FactorySandbox provider;
    private final SessionStore store;
    private final SessionHostSettings host;
    private final OwnedResources resources;

    /**
     * @param provider the opened, selected provider
     * @param store the open session store (the factory's own or the host's)
     * @param host what the host set on the factory builder
     * @param resources where closeable objects are registered
     */
    public SessionModule(FactorySandbox provider, SessionStore store, SessionHostSettings host, OwnedResources resources) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.store = Objects.requireNonNull(store, "store");
        this.host = Objects.requireNonNull(host, "host");
        this.resources = Objects.requireNonNull(resources, "resources");
    }

    @Override
    protected void configure() {
        binder().requireExplicitBindings();
        binder().disableCircularProxies();
        bindListener(new AbstractMatcher<Binding<?>>() {
            @Override
            public boolean matches(Binding<?> binding) {
                return !HANDED_IN.contains(binding.getKey());
            }
        }, resources.listener());

        // Through providers, not toInstance: Guice must not inject into objects it did not make.
        bind(FactorySandbox.class).toProvider(Providers.of(provider));
        bind(SessionStore.class).toProvider(Providers.of(store));
        bind(SessionListener.class).toProvider(Providers.of(host.listener()));
        bind(Clock.class).toInstance(Clock.systemUTC());
        bind(OwnedResources.class).toInstance(resources);
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
    SessionDefaults defaults(ResolvedConfig config, SessionTimeouts timeouts) {
        return new SessionDefaults(config.repository().defaultBaseBranch(), config.repository().setup(), config.repository().teardown(),
                RepositoryLocator.of(config.repository()), host.repositoryToken(), timeouts, RetryPolicy.defaults(), config.git().user());
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
    CommandActivity activity(SessionStore store, Clock clock) {
        return new CommandActivity(store, clock);
    }

    @Provides
    @Singleton
    CommandJournal journal(SessionStore store, ResolvedConfig config, Clock clock) {
        return new CommandJournal(store, host.commandOrigin(), host.journalSize().orElse(config.journal().maxEntries()), clock);
    }

    @Provides
    @Singleton
    SessionServices services(SessionStore store, SessionLeases leases, InFlightStarts inFlight, SessionListener listener,
                             SessionDefaults defaults, CommandActivity activity, CommandJournal journal) {
        return new SessionServices(store, leases, inFlight, listener, defaults, activity, journal);
    }

    @Provides
    @Singleton
    TemplateSettings templateSettings(ResolvedConfig config) {
        return new TemplateSettings(true, config.repository().templateInputs());
    }

    @Provides
    @Singleton
    Optional<ObjectCache> objectCache(ResolvedConfig config, SessionTimeouts timeouts) {
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
    SessionOpener opener(ResolvedConfig config, FactorySandbox provider, SessionMemo memo, SessionServices services, TemplateSettings templates,
                         Optional<ObjectCache> objectCache, Provider<AutoBuilds> autoBuilds) {
        return new SessionOpener(config.provider(), provider, memo, services, templates, objectCache, autoBuilds::get);
    }

    @Provides
    @Singleton
    SessionRetirementCoordinator coordinator(SessionMemo memo, FactorySandbox provider, SessionServices services) {
        return new SessionRetirementCoordinator(memo, provider, services);
    }

    @Provides
    @Singleton
    Retirements retirements(SessionRetirementCoordinator coordinator, SessionStore store, SessionMemo memo, FactorySandbox provider,
                            SessionOpener opener, CommandActivity activity, ResolvedConfig config, Clock clock) {
        return new Retirements(coordinator, store, memo, config.provider(), provider, opener::open, activity, config.lifecycle(), clock);
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

    /**
     * What the host set on the factory builder for the session machinery.
     *
     * @param listener observes session progress and commands
     * @param repositoryToken a fresh token per start for sessions without their own access source
     * @param commandOrigin what the journal records as the origin of commands
     * @param journalSize the journal's size when the builder set one (it beats {@code journal.maxEntries})
     */
    public record SessionHostSettings(SessionListener listener, Optional<Supplier<String>> repositoryToken, String commandOrigin,
                                      Optional<Integer> journalSize) {

        public SessionHostSettings {
            Objects.requireNonNull(listener, "listener");
            Objects.requireNonNull(repositoryToken, "repositoryToken");
            Objects.requireNonNull(commandOrigin, "commandOrigin");
            Objects.requireNonNull(journalSize, "journalSize");
        }
    }
}
