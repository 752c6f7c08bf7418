package io.sandboxfactory.core.testing;

import io.sandboxfactory.core.config.EgressConfig;
import io.sandboxfactory.core.egress.EgressEvent;
import io.sandboxfactory.core.egress.EgressProxy;
import io.sandboxfactory.core.egress.EgressResolver;
import io.sandboxfactory.core.egress.EgressSessions;
import io.sandboxfactory.core.egress.EgressMode;
import io.sandboxfactory.core.internal.session.EgressChannels;
import io.sandboxfactory.core.internal.session.EgressRules;
import io.sandboxfactory.api.SandboxCapability;
import java.util.concurrent.CopyOnWriteArrayList;
import com.google.inject.AbstractModule;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Stage;
import com.google.inject.TypeLiteral;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.testing.TestProviderContext;
import io.sandboxfactory.core.internal.gateway.GitGateway;
import io.sandboxfactory.core.internal.git.ObjectCache;
import io.sandboxfactory.core.internal.git.RetryPolicy;
import io.sandboxfactory.core.internal.retire.SessionRetirementCoordinator;
import io.sandboxfactory.core.internal.session.CommandActivity;
import io.sandboxfactory.core.internal.session.InFlightStarts;
import io.sandboxfactory.core.internal.session.SessionDefaults;
import io.sandboxfactory.core.internal.session.SessionMemo;
import io.sandboxfactory.core.internal.session.OpenPipelineModule;
import io.sandboxfactory.core.internal.session.SessionOpener;
import io.sandboxfactory.core.internal.session.SessionProvider;
import io.sandboxfactory.core.internal.session.SessionServices;
import io.sandboxfactory.core.internal.store.SessionLeases;
import io.sandboxfactory.core.internal.template.AutoBuilds;
import io.sandboxfactory.core.internal.template.TemplateSettings;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.store.api.LeaseOwner;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.core.store.SqliteSessionStore;
import io.sandboxfactory.provider.local.LocalFactorySandbox;
import io.sandboxfactory.provider.local.LocalProviderConfig;
import io.sandboxfactory.provider.local.LocalSandboxProvider;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * One factory's worth of the session machinery built from real parts with explicit constructors:
 * the local provider rooted in the state directory, the SQLite store, leases, memo, opener and
 * retirement coordinator, plus a recording listener. Two harnesses on one state directory behave
 * like two processes.
 */
public final class SessionHarness implements AutoCloseable {

    public final Path state;
    /** The Git gateway the harness's sessions use (the local provider shows its directories). */
    public final GitGateway gateway;
    public final SqliteSessionStore store;
    public final SessionLeases leases;
    public final InFlightStarts inFlight = new InFlightStarts();
    public final RecordingListener listener = new RecordingListener();
    public final LocalFactorySandbox local;
    public final SessionMemo memo = new SessionMemo();
    public final SessionServices services;
    private final CommandActivity activity;
    public final SessionOpener opener;
    public final SessionRetirementCoordinator coordinator;
    /** The egress decisions of this harness's proxy. */
    public final List<EgressEvent> egressEvents = new CopyOnWriteArrayList<>();
    public final EgressSessions egressSessions = new EgressSessions();
    public final EgressProxy egressProxy;
    public final EgressRules egressRules;
    public final EgressChannels egressChannels;

    public SessionHarness(Path state) {
        this(state, UnaryOperator.identity());
    }

    public SessionHarness(Path state, UnaryOperator<FactorySandbox> wrapProvider) {
        this(state, SessionDefaults.defaults().withRetry(new RetryPolicy(2, Duration.ZERO)), wrapProvider);
    }

    public SessionHarness(Path state, SessionDefaults defaults, UnaryOperator<FactorySandbox> wrapProvider) {
        this(state, defaults, EgressConfig.defaults(), wrapProvider);
    }

    /** With the {@code egress} section {@code egress}. */
    public SessionHarness(Path state, EgressConfig egress, UnaryOperator<FactorySandbox> wrapProvider) {
        this(state, SessionDefaults.defaults().withRetry(new RetryPolicy(2, Duration.ZERO)), egress, wrapProvider);
    }

    private SessionHarness(Path state, SessionDefaults defaults, EgressConfig egress, UnaryOperator<FactorySandbox> wrapProvider) {
        this.state = state;
        this.gateway = new GitGateway(state, Duration.ofMinutes(5), false, Optional.empty(), true, false, "local");
        this.store = SqliteSessionStore.openIn(state);
        this.leases = new SessionLeases(store, LeaseOwner.forThisProcess(), Duration.ofSeconds(5), Duration.ofMillis(20));
        this.local = (LocalFactorySandbox) new LocalSandboxProvider()
                .open(LocalProviderConfig.withRoot(state.resolve("sessions").toString()).withVolumes(List.of(state.getParent().toString())),
                        new TestProviderContext(state, "test"));
        FactorySandbox provider = wrapProvider.apply(local);
        this.activity = new CommandActivity(store, java.time.Clock.systemUTC());
        this.services = new SessionServices(store, leases, inFlight, listener, defaults, activity);
        this.coordinator = new SessionRetirementCoordinator(memo, provider, services);
        this.egressRules = new EgressRules(egress, store);
        this.egressProxy = new EgressProxy(egressSessions, new EgressResolver(egress.resolvedAddresses()), egressEvents::add,
                java.time.Clock.systemUTC(), egress.proxySocket());
        this.egressChannels = new EgressChannels(state, egressProxy, egress.egressMode() == EgressMode.ALLOWLIST
                && provider.capabilities().contains(SandboxCapability.HOST_DIRECTORIES));
        this.opener = openPipeline(provider).getInstance(SessionOpener.class);
    }

    /** The open pipeline as the factory wires it, without templates, template builds or object cache. */
    private Injector openPipeline(FactorySandbox provider) {
        return Guice.createInjector(Stage.PRODUCTION, new AbstractModule() {
            @Override
            protected void configure() {
                binder().requireExplicitBindings();
                binder().disableCircularProxies();
                bind(SessionServices.class).toInstance(services);
                bind(SessionDefaults.class).toInstance(services.defaults());
                bind(SessionStore.class).toInstance(store);
                bind(SessionMemo.class).toInstance(memo);
                bind(SessionProvider.class).toInstance(new SessionProvider("local", provider));
                bind(TemplateSettings.class).toInstance(TemplateSettings.disabled());
                bind(AutoBuilds.class).toInstance(AutoBuilds.disabled());
                bind(new TypeLiteral<Optional<ObjectCache>>() { }).toInstance(Optional.empty());
                bind(SessionRetirementCoordinator.class).toInstance(coordinator);
                bind(EgressRules.class).toInstance(egressRules);
                bind(EgressSessions.class).toInstance(egressSessions);
                bind(EgressProxy.class).toInstance(egressProxy);
                bind(EgressChannels.class).toInstance(egressChannels);
                bind(GitGateway.class).toInstance(gateway);
                install(new OpenPipelineModule());
            }
        });
    }

    public Path sessionDirectory(String sessionId) {
        return local.root().resolve(sessionId);
    }

    public SessionHandle open(SessionSpec spec) {
        return opener.open(spec);
    }

    public void retire(String sessionId, RetireMode mode) {
        coordinator.retire(sessionId, mode.deletesSession());
    }

    @Override
    public void close() {
        opener.close();
        egressChannels.close();
        egressProxy.close();
        gateway.close();
        activity.close();
        leases.close();
        store.close();
    }
}
