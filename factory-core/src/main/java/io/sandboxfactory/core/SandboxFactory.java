package io.sandboxfactory.core;

import com.google.inject.CreationException;
import com.google.inject.Guice;
import com.google.inject.Injector;
import com.google.inject.Scopes;
import com.google.inject.Stage;
import com.google.inject.spi.Message;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.InvalidInputException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.api.host.SandboxCallback;
import io.sandboxfactory.core.internal.config.ConfigExplainer;
import io.sandboxfactory.core.internal.config.ConfigOverrides;
import io.sandboxfactory.core.internal.config.ConfigResolver;
import io.sandboxfactory.core.config.EffectiveConfig;
import io.sandboxfactory.core.config.EnvironmentConfig;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.internal.config.FactoryConfigLoader;
import io.sandboxfactory.core.internal.config.ResolvedConfig;
import io.sandboxfactory.core.discovery.DiscoveredProvider;
import io.sandboxfactory.core.files.PeekFilesystem;
import io.sandboxfactory.core.internal.discovery.DiscoveredProviders;
import io.sandboxfactory.core.internal.discovery.ProviderDiscovery;
import io.sandboxfactory.core.internal.retire.Retirements;
import io.sandboxfactory.core.internal.session.CommandJournal;
import io.sandboxfactory.core.internal.session.SessionEntry;
import io.sandboxfactory.core.internal.session.SessionMemo;
import io.sandboxfactory.core.internal.store.SessionStores;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.retire.RetireResult;
import io.sandboxfactory.core.retire.SessionSelector;
import io.sandboxfactory.core.session.SessionEnvironment;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.store.api.SessionRecord;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.store.api.SessionStoreProvider;
import io.sandboxfactory.store.api.StoreContext;
import io.sandboxfactory.core.template.TemplateRequest;
import io.sandboxfactory.core.internal.wiring.FactoryModule;
import io.sandboxfactory.core.internal.wiring.HostObjects;
import io.sandboxfactory.core.internal.wiring.OwnedResources;
import io.sandboxfactory.core.internal.wiring.SelectedProvider;
import io.sandboxfactory.core.internal.wiring.SessionModule.SessionHostSettings;
import io.sandboxfactory.core.internal.wiring.SessionModule;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * The host-facing façade: discovers providers, resolves config, wires one Guice injector and
 * opens the selected provider, then hands out session sandboxes.
 *
 * <p>Guarantees: each factory has its own discovery pass, injector, opened provider and {@link
 * SessionMemo}; nothing is shared between factories or kept in static state. {@link
 * Builder#build()} validates everything (providers, config, provider capabilities) before it
 * creates the state directory, and fails with a {@link FactoryConfigurationException} whose message
 * names the bad value and the rule. {@link #sandbox} returns the same instance for the same session
 * id for the life of the memo entry. {@link #close()} is idempotent and closes the opened provider;
 * it does not stop or destroy sandboxes.
 */
public final class SandboxFactory implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(SandboxFactory.class);

    /** How many sessions {@link #retireAll(SessionSelector, RetireMode)} retires at once. */
    public static final int DEFAULT_RETIRE_PARALLELISM = Retirements.DEFAULT_PARALLELISM;

    private final Injector injector;
    private final OwnedResources resources;
    private final DiscoveredProviders providers;
    private final ResolvedConfig config;
    private final FactorySandbox factorySandbox;
    private final SessionMemo memo;
    private final FactorySessions sessions;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * @param injector the session injector (a child of the factory's, so it sees every binding)
     * @param resources everything this factory opened, closed by {@link #close()}
     */
    private SandboxFactory(Injector injector, OwnedResources resources) {
        this.injector = injector;
        this.resources = resources;
        this.providers = injector.getInstance(DiscoveredProviders.class);
        this.config = injector.getInstance(ResolvedConfig.class);
        this.factorySandbox = injector.getInstance(FactorySandbox.class);
        this.memo = injector.getInstance(SessionMemo.class);
        this.sessions = injector.getInstance(FactorySessions.class);
    }

    public static Builder builder() {
        return new Builder();
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
    public ResolvedConfig config() {
        return config;
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
        SessionEntry entry = memo.getOrCreate(ctx.sessionId(), () -> create(ctx));
        if (!ctx.repoFullName().isBlank()) {
            entry.claimOwnRepo(ctx.repoFullName());
        }
        return entry.sandbox();
    }

    private MastraSandbox<?> create(FactorySandboxContext ctx) {
        MastraSandbox<?> sandbox = factorySandbox.create(ctx);
        if (sandbox == null || !ctx.sessionId().equals(sandbox.id())) {
            throw new SandboxException(StandardErrorCode.PROVIDER_CONTRACT, "Sandbox provider '" + providerName() + "' returned "
                    + (sandbox == null ? "no sandbox" : "a sandbox with id '" + sandbox.id() + "'") + " for session '"
                    + ctx.sessionId() + "'; it must return one whose id is the session id.");
        }
        return sandbox;
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

    /** The sessions of the store that {@code selector} picks now, in session id order; changes nothing. */
    public List<SessionRecord> selectSessions(SessionSelector selector) {
        requireOpen();
        return sessions.select(selector);
    }

    /**
     * Retires every session {@code selector} picks, each as {@link #retire} does (serialized per
     * session, teardown included), {@value #DEFAULT_RETIRE_PARALLELISM} at a time; a failure of
     * one does not stop the rest. One result per session, in session id order.
     */
    public List<RetireResult> retireAll(SessionSelector selector, RetireMode mode) {
        return retireAll(selector, mode, DEFAULT_RETIRE_PARALLELISM);
    }

    /** {@link #retireAll(SessionSelector, RetireMode)}, at most {@code parallelism} sessions at once. */
    public List<RetireResult> retireAll(SessionSelector selector, RetireMode mode, int parallelism) {
        requireOpen();
        return sessions.retireAll(selector, Objects.requireNonNull(mode, "mode"), parallelism);
    }

    /**
     * Retires each of {@code sessionIds} as {@link #retire} does (an unknown one is a no-op that
     * says so), at most {@code parallelism} at once; one result per id, in the order given.
     */
    public List<RetireResult> retireEach(List<String> sessionIds, RetireMode mode, int parallelism) {
        requireOpen();
        return sessions.retireEach(List.copyOf(sessionIds), Objects.requireNonNull(mode, "mode"), parallelism);
    }

    /**
     * A dry run of {@link #retireAll(SessionSelector, RetireMode)}: the same selection and the same
     * checks, nothing changed; each result is {@code WOULD_RETIRE}, or {@code FAILED} with the
     * reason the real run would fail for.
     */
    public List<RetireResult> planRetirement(SessionSelector selector) {
        requireOpen();
        return sessions.plan(Objects.requireNonNull(selector, "selector"));
    }

    /** A dry run of {@link #retireEach}: {@code WOULD_RETIRE}, {@code UNKNOWN} or {@code FAILED} (and why) for each id, nothing changed. */
    public List<RetireResult> planRetirement(List<String> sessionIds) {
        requireOpen();
        return sessions.planEach(List.copyOf(sessionIds));
    }

    /**
     * Applies the configured idle policies: destroys sessions idle longer than {@code
     * lifecycle.deleteAfterIdle}, then stops running ones idle longer than {@code
     * lifecycle.stopAfterIdle}, each through {@link #retire}. A session with a command running (in
     * any process) is never idle. Does nothing when neither is configured.
     */
    public List<RetireResult> applyIdlePolicies() {
        requireOpen();
        return sessions.applyIdlePolicies();
    }

    /**
     * Marks the session used now, as a command would, so idle policies leave it be (an agent that
     * thinks between commands); false when the store does not know the session.
     */
    public boolean touch(String sessionId) {
        requireOpen();
        return sessions.touch(SessionSpec.requireValidSessionId(sessionId));
    }

    /** Replaces the repository token ({@code GH_TOKEN}) in an open session's environment for later commands. */
    public void refreshToken(String sessionId, String token) {
        requireOpen();
        sessions.refreshToken(sessionId, token);
    }

    /** Runs {@code callback} whenever {@code sessionId} is retired, to drop host caches; the result unregisters it. */
    public Runnable onSessionInvalidated(String sessionId, Runnable callback) {
        requireOpen();
        return sessions.onInvalidate(sessionId, callback);
    }

    /**
     * Removes the selected provider's orphaned sandboxes: those whose session the store does not
     * know, and those whose first open crashed (never handed to a user, its lease left behind by a
     * dead or expired owner), with that session's record. Live sessions — held here or by another
     * live process, being opened, or ever handed to a user (even stopped) — are never touched. See
     * {@link OrphanSweeper}. Also removes object cache mirrors unused for {@code cache.maxIdle}.
     */
    public List<SandboxListing> sweep() {
        requireOpen();
        List<SandboxListing> removed = sessions.sweep();
        sessions.pruneObjectCache();
        return removed;
    }

    /**
     * Deletes the records of the selected provider's sessions whose first open crashed before it
     * left a sandbox {@link #sweep} could remove (no start completed, the lease left behind by a dead
     * or expired owner); never one opened lazily, being opened, or ever started. Their ids, in order.
     * What {@code factory sweep} does after {@link #sweep}. (An open that fails without crashing
     * undoes itself: see {@link #openSession}.)
     */
    public List<String> forgetUnfinishedOpens() {
        requireOpen();
        return sessions.forgetUnfinishedOpens();
    }

    /**
     * Destroys the ephemeral sessions of {@code run}s whose process died before it could (killed
     * outright): sessions opened with {@link SessionSpec#ephemeralFor} whose owner is provably gone
     * from this host. Sessions of a live owner, of another host, opened without an owner (or reopened
     * so since), and those this factory holds are never touched. What {@code factory sweep} does first.
     */
    public List<RetireResult> destroyAbandonedRuns() {
        requireOpen();
        return sessions.destroyAbandonedRuns();
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
        if (!factorySandbox.capabilities().contains(SandboxCapability.TEMPLATES)) {
            return List.of();
        }
        return factorySandbox.listTemplates().stream().sorted(Comparator.comparing(SandboxTemplate::createdAt).reversed()).toList();
    }

    /** Removes the template {@code name} (validated first; nothing is touched for a bad name); idempotent. */
    public void removeTemplate(String name) {
        requireOpen();
        SandboxTemplate.requireValidName(name);
        if (!factorySandbox.capabilities().contains(SandboxCapability.TEMPLATES)) {
            throw new SandboxException(StandardErrorCode.TEMPLATES_UNSUPPORTED, "Sandbox provider '" + providerName() + "' does not support templates.");
        }
        factorySandbox.removeTemplate(name);
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
     * The environment configured as {@code environments.<name>}, for {@code SessionSpec.Builder.environment};
     * fails naming the name and the configured ones when there is none.
     */
    public SessionEnvironment environment(String name) {
        EnvironmentConfig configured = config.environments().get(name);
        if (configured == null) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Unknown environment '" + name + "'; configured: "
                    + config.environments().keySet().stream().sorted().toList() + ".");
        }
        return configured.toEnvironment();
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

    /**
     * Collects what a factory is built from. Precedence of each setting: this builder &gt;
     * environment ({@code FACTORY_*}) &gt; config file or {@link FactoryConfig} &gt; defaults.
     */
    public static final class Builder {
        private Path configFile;
        private FactoryConfig configObject;
        private ClassLoader classLoader;
        private String provider;
        private Path stateDirectory;
        private String owner;
        private Map<String, String> environment;
        private Path workingDirectory;
        private final HostObjects.Builder hostObjects = HostObjects.builder();
        private SessionStore sessionStore;
        private SessionListener sessionListener = SessionListener.NONE;
        private Supplier<String> repositoryToken;
        private String commandOrigin = CommandJournal.API;
        /** Set only by {@link #journalSize}: it then wins over {@code journal.maxEntries}. */
        private Integer journalSize;

        private Builder() {
        }

        /**
         * What the command journal records as the origin of commands run through this factory's
         * sessions (default {@code api}; the {@code factory} command says {@code cli}, {@code
         * daemon} or {@code mcp}). Setup and teardown commands are always {@code setup} and {@code teardown}.
         */
        public Builder commandOrigin(String origin) {
            if (origin == null || !origin.matches("[a-z][a-z0-9-]{0,31}")) {
                throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Command origin '" + origin + "' is invalid; use a short lower-case word like api or cli.");
            }
            this.commandOrigin = origin;
            return this;
        }

        /**
         * How many commands the journal keeps per session, the oldest dropped first; overrides the
         * config's {@code journal.maxEntries} (default 1000; 0 turns it off).
         */
        public Builder journalSize(int entries) {
            if (entries < 0) {
                throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Journal size " + entries + " is invalid; give 0 (off) or more entries.");
            }
            this.journalSize = entries;
            return this;
        }

        /**
         * Keeps session state in {@code store} instead of the default SQLite file under the state
         * directory. The factory does not close a store given here.
         */
        public Builder sessionStore(SessionStore store) {
            this.sessionStore = Objects.requireNonNull(store, "store");
            return this;
        }

        /** Observes session progress (phases) and the commands the machinery runs. */
        public Builder sessionListener(SessionListener listener) {
            this.sessionListener = Objects.requireNonNull(listener, "listener");
            return this;
        }

        /**
         * Supplies a fresh repository token per start for sessions without their own {@code
         * RepositoryAccessSource}; without it such sessions clone anonymously.
         */
        public Builder repositoryToken(Supplier<String> token) {
            this.repositoryToken = Objects.requireNonNull(token, "token");
            return this;
        }

        /** Reads settings from a YAML ({@code .yaml}, {@code .yml}) or JSON ({@code .json}) file; replaces {@link #config(FactoryConfig)}. */
        public Builder config(Path file) {
            this.configFile = Objects.requireNonNull(file, "file");
            this.configObject = null;
            return this;
        }

        /** Uses settings built in code; replaces {@link #config(Path)}. */
        public Builder config(FactoryConfig config) {
            this.configObject = Objects.requireNonNull(config, "config");
            this.configFile = null;
            return this;
        }

        /** The class loader providers are discovered with; default the thread's context class loader. */
        public Builder classLoader(ClassLoader classLoader) {
            this.classLoader = Objects.requireNonNull(classLoader, "classLoader");
            return this;
        }

        /** Selects the provider by name; beats the environment and the config. */
        public Builder provider(String provider) {
            this.provider = Objects.requireNonNull(provider, "provider");
            return this;
        }

        /** The state directory; beats the environment and the config. Relative paths resolve against {@link #workingDirectory}. */
        public Builder stateDirectory(Path stateDirectory) {
            this.stateDirectory = Objects.requireNonNull(stateDirectory, "stateDirectory");
            return this;
        }

        /** Who owns the sandboxes (labels, names); beats the environment and the config. */
        public Builder owner(String owner) {
            this.owner = Objects.requireNonNull(owner, "owner");
            return this;
        }

        /**
         * The host environment: where {@code FACTORY_*} overrides are read from, and what providers
         * see as {@link io.sandboxfactory.api.ProviderContext#environment()}; default {@link System#getenv()}.
         */
        public Builder environment(Map<String, String> environment) {
            this.environment = Map.copyOf(environment);
            return this;
        }

        /** What relative paths (state directory, {@code FACTORY_STATE_DIR}) resolve against; default this process's. */
        public Builder workingDirectory(Path workingDirectory) {
            this.workingDirectory = workingDirectory.toAbsolutePath().normalize();
            return this;
        }

        /** Registers {@code value} for providers to look up by exactly {@code type}; replaces an earlier one. */
        public <T> Builder hostObject(Class<T> type, T value) {
            hostObjects.put(type, value);
            return this;
        }

        /** Registers the function the {@code custom} provider builds sandboxes with (a {@link SandboxCallback} host object). */
        public Builder callback(Function<FactorySandboxContext, MastraSandbox<?>> callback) {
            Objects.requireNonNull(callback, "callback");
            SandboxCallback asCallback = callback instanceof SandboxCallback given ? given : callback::apply;
            return hostObject(SandboxCallback.class, asCallback);
        }

        /**
         * Discovers providers, resolves the config, wires the injector and opens the selected
         * provider, then creates the state directory. Everything is validated before that directory
         * is created.
         */
        public SandboxFactory build() {
            Resolution resolution = resolve();
            DiscoveredProviders discovered = resolution.discovered();
            ResolvedConfig resolved = resolution.resolved();
            String origin = resolved.origin();
            Map<String, String> hostEnvironment = resolution.environment();
            // Chosen before anything is created, so an unknown store type fails like an unknown provider.
            Optional<SessionStoreProvider> storeProvider = sessionStore != null ? Optional.empty()
                    : Optional.of(SessionStores.discover(loader()).require(resolved.store()));

            Injector injector = Guice.createInjector(Stage.PRODUCTION, new FactoryModule(discovered, resolved, hostObjects.build(),
                    hostEnvironment));
            OwnedResources resources = new OwnedResources();
            SandboxFactory factory;
            try {
                FactorySandbox opened = resources.own(injector.getInstance(SelectedProvider.class).open());
                createStateDirectory(resolved.stateDirectory());
                SessionStore store = sessionStore != null ? sessionStore
                        : resources.own(storeProvider.orElseThrow().open(resolved.store(), new StoreContext(resolved.stateDirectory(),
                                hostEnvironment)));
                SessionHostSettings settings = new SessionHostSettings(sessionListener, Optional.ofNullable(repositoryToken), commandOrigin,
                        Optional.ofNullable(journalSize));
                factory = new SandboxFactory(childInjector(injector, new SessionModule(opened, store, settings, resources)), resources);
            } catch (RuntimeException e) {
                closeAfterFailure(resources, e);
                throw e;
            }
            LOG.debug("Sandbox factory ready: provider '{}' from {}, state directory {}, config from {}", resolved.provider(),
                    discovered.require(resolved.provider()).location(), resolved.stateDirectory(), origin);
            return factory;
        }

        /**
         * The configuration {@link #build()} would use, every value with its source, secrets masked;
         * discovers providers and validates like {@code build()}, but opens and creates nothing.
         *
         * @param overrideSource how to name the source of a value set on this builder ({@code provider},
         *     {@code stateDir}, {@code owner}); the CLI names its flags
         */
        public EffectiveConfig effectiveConfig(Function<String, String> overrideSource) {
            Resolution resolution = resolve();
            return new ConfigExplainer().explain(resolution.resolved(), resolution.base(), Optional.ofNullable(configFile),
                    resolution.environment(), resolution.overrides(), resolution.discovered(), overrideSource);
        }

        /** What the config was resolved from and to; {@code base} is the defaults when a file was read. */
        private record Resolution(DiscoveredProviders discovered, FactoryConfig base, ConfigOverrides overrides,
                                  Map<String, String> environment, ResolvedConfig resolved) {
        }

        /** Discovers the providers and resolves the config against them; reads only. */
        private Resolution resolve() {
            Path home = Path.of(System.getProperty("user.home"));
            DiscoveredProviders discovered = new ProviderDiscovery().discover(loader());
            ConfigOverrides overrides = new ConfigOverrides(Optional.ofNullable(provider), Optional.ofNullable(stateDirectory),
                    Optional.ofNullable(owner));
            Map<String, String> hostEnvironment = environment == null ? System.getenv() : environment;
            ConfigResolver resolver = new ConfigResolver(home, System.getProperty("user.name"),
                    workingDirectory == null ? Path.of("").toAbsolutePath() : workingDirectory);
            if (configFile != null) {
                ResolvedConfig resolved = resolver.resolveFile(new FactoryConfigLoader(home), configFile, hostEnvironment, overrides, discovered);
                return new Resolution(discovered, FactoryConfig.defaults(), overrides, hostEnvironment, resolved);
            }
            FactoryConfig base = configObject != null ? configObject : FactoryConfig.defaults();
            String origin = configObject != null ? "the FactoryConfig given to the factory builder" : "the built-in defaults";
            ResolvedConfig resolved = resolver.resolve(base, origin, hostEnvironment, overrides, discovered);
            return new Resolution(discovered, base, overrides, hostEnvironment, resolved);
        }

        private ClassLoader loader() {
            if (classLoader != null) {
                return classLoader;
            }
            ClassLoader context = Thread.currentThread().getContextClassLoader();
            return context != null ? context : SandboxFactory.class.getClassLoader();
        }

        private static void createStateDirectory(Path directory) {
            try {
                Files.createDirectories(directory);
            } catch (IOException e) {
                throw new FactoryConfigurationException(StandardErrorCode.STATE_DIRECTORY_FAILED, "State directory " + directory
                        + " could not be created: " + e.getMessage() + ".", e);
            }
        }

        private static Injector childInjector(Injector parent, SessionModule module) {
            try {
                return parent.createChildInjector(module, binder -> binder.bind(FactorySessions.class).in(Scopes.SINGLETON));
            } catch (CreationException e) {
                // A part of the session machinery failed to start (say, a store query): its own error, not Guice's report.
                for (Message message : e.getErrorMessages()) {
                    if (message.getCause() instanceof RuntimeException cause) {
                        throw cause;
                    }
                }
                throw e;
            }
        }

        private static void closeAfterFailure(OwnedResources resources, RuntimeException failure) {
            try {
                resources.close();
            } catch (RuntimeException e) {
                failure.addSuppressed(e);
            }
        }
    }
}
