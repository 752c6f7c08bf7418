package io.sandboxfactory.core;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxTemplate;
import io.sandboxfactory.core.config.ResolvedConfig;
import io.sandboxfactory.core.git.RetryPolicy;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.retire.RetireResult;
import io.sandboxfactory.core.retire.Retirements;
import io.sandboxfactory.core.retire.SessionRetirementCoordinator;
import io.sandboxfactory.core.retire.SessionSelector;
import io.sandboxfactory.core.session.CommandActivity;
import io.sandboxfactory.core.session.CommandJournal;
import io.sandboxfactory.core.session.InFlightStarts;
import io.sandboxfactory.core.session.SessionDefaults;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionMemo;
import io.sandboxfactory.core.session.SessionOpener;
import io.sandboxfactory.core.session.SessionServices;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.SessionTimeouts;
import io.sandboxfactory.core.store.LeaseOwner;
import io.sandboxfactory.core.store.SessionLeases;
import io.sandboxfactory.core.store.SessionRecord;
import io.sandboxfactory.core.store.SessionStore;
import io.sandboxfactory.core.git.ObjectCache;
import io.sandboxfactory.core.template.AutoBuilds;
import io.sandboxfactory.core.template.TemplateBuilder;
import io.sandboxfactory.core.template.TemplateRequest;
import io.sandboxfactory.core.template.TemplateSettings;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The session machinery of one {@link SandboxFactory}: store, leases, opener and retirement
 * coordinator, all owned by that factory. Made after the state directory exists, because the
 * default store is a file in it.
 */
final class FactorySessions implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(FactorySessions.class);

    /** How often running starts check whether another process retired their session. */
    private static final Duration RETIREMENT_WATCH = Duration.ofMillis(250);

    private final SessionStore store;
    private final boolean ownsStore;
    private final SessionLeases leases;
    private final InFlightStarts inFlight;
    private final CommandActivity activity;
    private final SessionOpener opener;
    private final SessionRetirementCoordinator coordinator;
    private final Retirements retirements;
    private final TemplateBuilder templates;
    private final Optional<AutoBuilds> autoBuilds;
    private final Optional<ObjectCache> objectCache;
    private final Duration cacheMaxIdle;

    private FactorySessions(SessionStore store, boolean ownsStore, SessionLeases leases, InFlightStarts inFlight,
                            CommandActivity activity, SessionOpener opener,
                            SessionRetirementCoordinator coordinator, Retirements retirements, TemplateBuilder templates,
                            Optional<AutoBuilds> autoBuilds, Optional<ObjectCache> objectCache, Duration cacheMaxIdle) {
        this.objectCache = objectCache;
        this.cacheMaxIdle = cacheMaxIdle;
        this.templates = templates;
        this.autoBuilds = autoBuilds;
        this.store = store;
        this.ownsStore = ownsStore;
        this.leases = leases;
        this.inFlight = inFlight;
        this.activity = activity;
        this.opener = opener;
        this.coordinator = coordinator;
        this.retirements = retirements;
    }

    /**
     * @param store the configured store, or the host's own
     * @param ownsStore whether the factory opened it (and closes it)
     */
    static FactorySessions open(ResolvedConfig config, FactorySandbox provider, SessionMemo memo, SessionStore store,
                                SessionListener listener, Optional<Supplier<String>> token, boolean ownsStore,
                                String commandOrigin, int journalSize) {
        Duration ttl = config.store().leaseTtl();
        SessionLeases leases = new SessionLeases(store, LeaseOwner.forThisProcess(), ttl,
                Duration.ofMillis(Math.min(200, Math.max(20, ttl.toMillis() / 10))));
        SessionTimeouts timeouts = new SessionTimeouts(Duration.ofMinutes(1), Duration.ofMinutes(10), Duration.ofMinutes(5),
                config.timeouts().setup(), Duration.ofMinutes(5));
        SessionDefaults defaults = new SessionDefaults(config.repository().defaultBaseBranch(), config.repository().setup(),
                config.repository().teardown(), config.repository().locator(), token, timeouts,
                RetryPolicy.defaults());
        InFlightStarts inFlight = new InFlightStarts();
        // Cut a start here short soon after another process retires its session.
        inFlight.watchRetirements(store, RETIREMENT_WATCH);
        CommandActivity activity = new CommandActivity(store, Clock.systemUTC());
        SessionServices services = new SessionServices(store, leases, inFlight, listener, defaults, activity,
                new CommandJournal(store, commandOrigin, journalSize, Clock.systemUTC()));
        TemplateSettings templateSettings = new TemplateSettings(true, config.repository().templateInputs());
        SessionOpener opener = new SessionOpener(provider, memo, services, templateSettings);
        SessionRetirementCoordinator coordinator = new SessionRetirementCoordinator(memo, provider, services);
        Retirements retirements = new Retirements(coordinator, store, memo, provider, opener::open, activity, config.lifecycle(),
                Clock.systemUTC());
        TemplateBuilder templates = new TemplateBuilder(provider, opener, store, defaults, templateSettings,
                id -> retirements.retire(id, RetireMode.DESTROY), Clock.systemUTC());
        Optional<AutoBuilds> autoBuilds = Optional.empty();
        if (config.templates().autoBuild()) {
            AutoBuilds builds = new AutoBuilds(templates, config.timeouts().setup().plus(Duration.ofMinutes(5)));
            opener.autoBuildWith(builds);
            autoBuilds = Optional.of(builds);
        }
        // The mirrors live on the host: only sandboxes that can see host directories can borrow from them.
        Optional<ObjectCache> objectCache = config.cache().enabled() && provider.capabilities().contains(SandboxCapability.HOST_DIRECTORIES)
                ? Optional.of(new ObjectCache(config.stateDirectory().resolve("git-cache"), timeouts.network())) : Optional.empty();
        if (config.cache().enabled() && objectCache.isEmpty()) {
            LOG.info("cache.enabled is set, but the sandboxes of provider '{}' cannot see host directories; clones go without the"
                    + " git object cache.", provider.provider());
        }
        objectCache.ifPresent(opener::useObjectCache);
        return new FactorySessions(store, ownsStore, leases, inFlight, activity, opener, coordinator, retirements, templates, autoBuilds,
                objectCache, config.cache().maxIdle());
    }

    SessionHandle open(SessionSpec spec) {
        return opener.open(spec);
    }

    Optional<SessionHandle> session(String sessionId) {
        return opener.session(sessionId);
    }

    RetireResult retire(String sessionId, RetireMode mode) {
        return retirements.retire(sessionId, mode);
    }

    List<SessionRecord> select(SessionSelector selector) {
        return retirements.select(selector);
    }

    List<RetireResult> retireAll(SessionSelector selector, RetireMode mode, int parallelism) {
        return retirements.retireAll(selector, mode, parallelism);
    }

    List<RetireResult> applyIdlePolicies() {
        return retirements.applyIdlePolicies();
    }

    boolean touch(String sessionId) {
        if (store.find(sessionId).isEmpty()) {
            return false;
        }
        activity.touch(sessionId);
        return true;
    }

    void refreshToken(String sessionId, String token) {
        opener.refreshToken(sessionId, token);
    }

    Runnable onInvalidate(String sessionId, Runnable callback) {
        return coordinator.onInvalidate(sessionId, callback);
    }

    /** Removes object cache mirrors unused for {@code cache.maxIdle}; how many. */
    int pruneObjectCache() {
        return objectCache.map(cache -> cache.prune(cacheMaxIdle)).orElse(0);
    }

    SandboxTemplate buildTemplate(TemplateRequest request) {
        return templates.build(request);
    }

    SessionStore store() {
        return store;
    }

    @Override
    public void close() {
        // Builds in flight use the opener and the store: they finish (bounded) first.
        autoBuilds.ifPresent(AutoBuilds::close);
        opener.close();
        activity.close();
        inFlight.close();
        leases.close();
        if (ownsStore) {
            store.close();
        }
    }
}
