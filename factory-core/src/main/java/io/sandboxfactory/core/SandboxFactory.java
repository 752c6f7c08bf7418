package io.sandboxfactory.core;

import com.google.inject.Guice;
import com.google.inject.Injector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.core.config.ConfigView;
import io.sandboxfactory.core.egress.EgressPolicy;
import io.sandboxfactory.core.internal.session.EgressRules;
import io.sandboxfactory.core.internal.config.ResolvedConfig;
import io.sandboxfactory.core.files.PeekFilesystem;
import io.sandboxfactory.core.internal.discovery.DiscoveredProviders;
import io.sandboxfactory.core.internal.session.SessionMemo;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.retire.RetireResult;
import io.sandboxfactory.core.session.Redaction;
import io.sandboxfactory.core.session.SessionEnvironment;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.core.template.TemplateRequest;
import io.sandboxfactory.core.internal.wiring.FactorySettings;
import io.sandboxfactory.core.internal.wiring.OwnedResources;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The host-facing façade: discovers providers, resolves config, wires one Guice injector and
 * opens the selected provider, then hands out session sandboxes.
 *
 * <p>Guarantees: each factory has its own discovery pass, injector, opened provider and {@link
 * SessionMemo}; nothing is shared between factories or kept in static state. {@link
 * SandboxFactoryBuilder#build()} validates everything (providers, config, provider capabilities) before it
 * creates the state directory, and fails with a {@link FactoryConfigurationException} whose message
 * names the bad value and the rule. {@link #sandbox} returns the same instance for the same session
 * id for the life of the memo entry. {@link #close()} is idempotent and closes the opened provider;
 * it does not stop or destroy sandboxes.
 */
public final class SandboxFactory implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SandboxFactory.class);

    private final Injector injector;
    private final OwnedResources resources;
    private final DiscoveredProviders providers;
    private final ResolvedConfig config;
    private final FactorySandbox factorySandbox;
    private final SessionMemo memo;
    private final FactorySessions sessions;
    private final SessionFleet fleet;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * @param injector the factory's injector
     * @param resources everything this factory opened, closed by {@link #close()}
     */
    SandboxFactory(Injector injector, OwnedResources resources) {
        this.injector = injector;
        this.resources = resources;
        this.providers = injector.getInstance(DiscoveredProviders.class);
        this.config = injector.getInstance(ResolvedConfig.class);
        this.factorySandbox = injector.getInstance(FactorySandbox.class);
        this.memo = injector.getInstance(SessionMemo.class);
        this.sessions = injector.getInstance(FactorySessions.class);
        this.fleet = new SessionFleet(sessions, this::requireOpen);
        LOG.debug("Sandbox factory ready: provider '{}' from {}, state directory {}, config from {}", providerName(),
                providers.require(providerName()).location(), stateDirectory(), config.origin());
    }

    public static SandboxFactoryBuilder builder() {
        return new SandboxFactoryBuilder();
    }

    /** The selected provider's name, e.g. {@code local}. */
    public String providerName() {
        return config.provider();
    }

    /** The opened, selected provider. */
    public FactorySandbox factorySandbox() {
        return factorySandbox;
    }

    /** Every provider this factory discovered, sorted by name. */
    public List<DiscoveredProvider> providers() {
        return providers.all();
    }

    /** The effective configuration. */
    public ConfigView config() {
        return config;
    }

    /**
     * What a host that prints what this factory hands it (the {@code factory} command) masks that
     * output with: the session store's password (the value of the variable {@code store.passwordEnv}
     * names), the values of the factory's environment's variables named like secrets, and token
     * shapes. A session's own secrets (its token, its setup secrets) are masked where its output leaves.
     */
    public Redaction redaction() {
        Map<String, String> environment = injector.getInstance(FactorySettings.class).environment();
        return Redaction.ofEnvironment(environment).and(Redaction.of(config.store().passwordEnv().map(environment::get).stream().toList()));
    }

    /** The absolute state directory; it exists once the factory is built. */
    public Path stateDirectory() {
        return config.stateDirectory();
    }

    /** This factory's session memo, for tests in this package; hosts use {@link #session} and {@link #peekFiles}. */
    SessionMemo memo() {
        return memo;
    }

    /**
     * The sandbox of {@code ctx.sessionId()}: the memo's instance when this process holds one,
     * otherwise a new one from the provider (created, not started). The provider must return a
     * sandbox whose id is the session id.
     */
    public MastraSandbox<?> sandbox(FactorySandboxContext ctx) {
        Objects.requireNonNull(ctx, "ctx");
        requireOpen();
        return sessions.sandbox(ctx);
    }

    /**
     * Opens a session: gets or creates its sandbox (one per session id, across threads, processes
     * and restarts), attaches the session start hook, and starts it as {@link SessionSpec#startMode()}
     * says. An eager open returns with the repository checked out on the session branch and the
     * setup done; its failures are thrown as they are (for example {@code SetupCommandException},
     * {@code MaterializeException}, {@code SessionRetiredException}). A failed eager open leaves
     * nothing behind: the first open of a session is undone (sandbox destroyed, record deleted), a
     * reopen leaves the session's definition as it was.
     */
    public SessionHandle openSession(SessionSpec spec) {
        requireOpen();
        return sessions.open(spec);
    }

    /**
     * The ids of the sessions whose sandbox this factory holds (sorted): a long-lived host such as
     * the factory daemon keeps them warm for the next command; nothing is started or asked.
     */
    public List<String> heldSessions() {
        return memo.sessionIds().stream().sorted().toList();
    }

    /** The session {@code sessionId} if this factory holds it; never creates or starts a sandbox. */
    public Optional<SessionHandle> session(String sessionId) {
        requireOpen();
        return sessions.session(sessionId);
    }

    /**
     * Retires a session: teardown, then {@link RetireMode#STOP stop} (files and record kept) or
     * {@link RetireMode#DESTROY destroy} (sandbox and record removed). Serialized per session; an
     * open in flight fails with {@code Session '<id>' was retired during workspace materialization}.
     * A session this factory does not hold is started first when it has teardown commands and its
     * sandbox exists, so the teardown runs whichever process retires it. A session that neither the
     * store nor this factory knows is left alone: the result says {@link RetireResult.Outcome#UNKNOWN}.
     */
    public RetireResult retire(String sessionId, RetireMode mode) {
        requireOpen();
        return sessions.retire(sessionId, Objects.requireNonNull(mode, "mode"));
    }

    /** The sessions of the store as a whole: select, retire many, apply idle policies, sweep. */
    public SessionFleet fleet() {
        return fleet;
    }

    /**
     * Marks the session used now, as a command would, so idle policies leave it be (an agent that
     * thinks between commands); false when the store does not know the session.
     */
    public boolean touch(String sessionId) {
        requireOpen();
        return sessions.touch(SessionSpec.requireValidSessionId(sessionId));
    }

    /**
     * A new repository token for an open session's later git commands: the Git gateway's, or with
     * {@code repository.exposeToken} its {@code GH_TOKEN}.
     */
    public void refreshToken(String sessionId, String token) {
        requireOpen();
        sessions.refreshToken(sessionId, token);
    }

    /**
     * The session's egress rules: the configured mode, the configured allow-list with the session's
     * own allowed hosts, and the hosts it denies. They matter in egress mode allowlist.
     */
    public EgressPolicy egress(String sessionId) {
        requireOpen();
        return injector.getInstance(EgressRules.class).policy(SessionSpec.requireValidSessionId(sessionId));
    }

    /**
     * Allows the host patterns {@code allow} and denies {@code deny} for a session known to the
     * store, from the next connection its sandboxes make (in any process) on; kept with the session.
     * A bad pattern is {@code INVALID_CONFIG} naming it, and nothing changes.
     */
    public EgressPolicy changeEgress(String sessionId, List<String> allow, List<String> deny) {
        requireOpen();
        return injector.getInstance(EgressRules.class).change(SessionSpec.requireValidSessionId(sessionId), allow, deny);
    }

    /** Runs {@code callback} whenever {@code sessionId} is retired, to drop host caches; the result unregisters it. */
    public Runnable onSessionInvalidated(String sessionId, Runnable callback) {
        requireOpen();
        return sessions.onInvalidate(sessionId, callback);
    }

    /**
     * Builds a template of {@code request}'s repository with its setup (design §5.14): a throw-away
     * session is cloned and set up without a template, snapshotted by the provider, and destroyed.
     * Later eager opens of a new sandbox with the same repository and setup start from the newest
     * such template. Fails when the provider does not declare {@code TEMPLATES}, or with the setup's
     * own failure.
     */
    public SandboxTemplate buildTemplate(TemplateRequest request) {
        requireOpen();
        return sessions.buildTemplate(Objects.requireNonNull(request, "request"));
    }

    /** The templates of the selected provider, newest first; none when it does not declare {@code TEMPLATES}. */
    public List<SandboxTemplate> templates() {
        requireOpen();
        return sessions.templates();
    }

    /** Removes the template {@code name} (validated first; nothing is touched for a bad name); idempotent. */
    public void removeTemplate(String name) {
        requireOpen();
        sessions.removeTemplate(name);
    }

    /**
     * A read-only view of the session's files (its checkout) that never starts or creates a
     * sandbox: a session whose sandbox is not running in this process reads as not materialized.
     */
    public PeekFilesystem peekFiles(String sessionId) {
        requireOpen();
        return new PeekFilesystem(sessions::session, sessionId);
    }

    /**
     * The environment configured as {@code environments.<name>}, for {@code SessionSpecBuilder.environment};
     * fails naming the name and the configured ones when there is none.
     */
    public SessionEnvironment environment(String name) {
        return sessions.environment(name);
    }

    /** The session store this factory keeps session state in. */
    public SessionStore sessionStore() {
        requireOpen();
        return sessions.store();
    }

    private void requireOpen() {
        if (closed.get()) {
            throw new IllegalStateException("This SandboxFactory is closed.");
        }
    }

    /** This factory's injector, for the session machinery and tests in this module. */
    Injector injector() {
        return injector;
    }

    /**
     * Closes (once) everything this factory opened, newest first: the session machinery, then the
     * store it opened (never a store the host gave it), then the provider. Sandboxes are left as they are.
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            resources.close();
        }
    }

    @Override
    public String toString() {
        return "SandboxFactory[provider=" + providerName() + ", stateDirectory=" + stateDirectory() + "]";
    }
}
