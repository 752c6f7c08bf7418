package io.sandboxfactory.core;

import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.host.SandboxCallback;
import io.sandboxfactory.core.internal.config.ConfigOverrides;
import io.sandboxfactory.core.config.EffectiveConfig;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.internal.session.CommandJournal;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.store.api.SessionStore;
import io.sandboxfactory.core.internal.wiring.HostObjects;
import io.sandboxfactory.core.internal.wiring.FactorySettings;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Collects what a factory is built from. Precedence of each setting: this builder &gt;
 * environment ({@code FACTORY_*}) &gt; config file or {@link FactoryConfig} &gt; defaults.
 */
public final class SandboxFactoryBuilder {
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
    private final Map<String, List<ErrorCodeSupplier>> hostErrorCodes = new LinkedHashMap<>();

    SandboxFactoryBuilder() {
    }

    /**
     * What the command journal records as the origin of commands run through this factory's
     * sessions (default {@code api}; the {@code factory} command says {@code cli}, {@code
     * daemon} or {@code mcp}). Setup and teardown commands are always {@code setup} and {@code teardown}.
     */
    public SandboxFactoryBuilder commandOrigin(String origin) {
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
    public SandboxFactoryBuilder journalSize(int entries) {
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
    public SandboxFactoryBuilder sessionStore(SessionStore store) {
        this.sessionStore = Objects.requireNonNull(store, "store");
        return this;
    }

    /** Observes session progress (phases) and the commands the machinery runs. */
    public SandboxFactoryBuilder sessionListener(SessionListener listener) {
        this.sessionListener = Objects.requireNonNull(listener, "listener");
        return this;
    }

    /**
     * Supplies a fresh repository token per start for sessions without their own {@code
     * RepositoryAccessSource}; without it such sessions clone anonymously.
     */
    public SandboxFactoryBuilder repositoryToken(Supplier<String> token) {
        this.repositoryToken = Objects.requireNonNull(token, "token");
        return this;
    }

    /** Reads settings from a YAML ({@code .yaml}, {@code .yml}) or JSON ({@code .json}) file; replaces {@link #config(FactoryConfig)}. */
    public SandboxFactoryBuilder config(Path file) {
        this.configFile = Objects.requireNonNull(file, "file");
        this.configObject = null;
        return this;
    }

    /** Uses settings built in code; replaces {@link #config(Path)}. */
    public SandboxFactoryBuilder config(FactoryConfig config) {
        this.configObject = Objects.requireNonNull(config, "config");
        this.configFile = null;
        return this;
    }

    /** The class loader providers are discovered with; default the thread's context class loader. */
    public SandboxFactoryBuilder classLoader(ClassLoader classLoader) {
        this.classLoader = Objects.requireNonNull(classLoader, "classLoader");
        return this;
    }

    /** Selects the provider by name; beats the environment and the config. */
    public SandboxFactoryBuilder provider(String provider) {
        this.provider = Objects.requireNonNull(provider, "provider");
        return this;
    }

    /** The state directory; beats the environment and the config. Relative paths resolve against {@link #workingDirectory}. */
    public SandboxFactoryBuilder stateDirectory(Path stateDirectory) {
        this.stateDirectory = Objects.requireNonNull(stateDirectory, "stateDirectory");
        return this;
    }

    /** Who owns the sandboxes (labels, names); beats the environment and the config. */
    public SandboxFactoryBuilder owner(String owner) {
        this.owner = Objects.requireNonNull(owner, "owner");
        return this;
    }

    /**
     * The host environment: where {@code FACTORY_*} overrides are read from, and what providers
     * see as {@link io.sandboxfactory.api.ProviderContext#environment()}; default {@link System#getenv()}.
     */
    public SandboxFactoryBuilder environment(Map<String, String> environment) {
        this.environment = Map.copyOf(environment);
        return this;
    }

    /** What relative paths (state directory, {@code FACTORY_STATE_DIR}) resolve against; default this process's. */
    public SandboxFactoryBuilder workingDirectory(Path workingDirectory) {
        this.workingDirectory = workingDirectory.toAbsolutePath().normalize();
        return this;
    }

    /** Registers {@code value} for providers to look up by exactly {@code type}; replaces an earlier one. */
    public <T> SandboxFactoryBuilder hostObject(Class<T> type, T value) {
        hostObjects.put(type, value);
        return this;
    }

    /** Registers the function the {@code custom} provider builds sandboxes with (a {@link SandboxCallback} host object). */
    public SandboxFactoryBuilder callback(Function<FactorySandboxContext, MastraSandbox<?>> callback) {
        Objects.requireNonNull(callback, "callback");
        SandboxCallback asCallback = callback instanceof SandboxCallback given ? given : callback::apply;
        return hostObject(SandboxCallback.class, asCallback);
    }

    /**
     * Error codes of the host's own (the {@code factory} command's), named {@code owner} in messages:
     * discovery then fails when a provider or store declares a code by one of their names, as it does
     * for the framework's {@code StandardErrorCode}s.
     */
    public SandboxFactoryBuilder errorCodes(String owner, List<? extends ErrorCodeSupplier> codes) {
        hostErrorCodes.put(Objects.requireNonNull(owner, "owner"), List.copyOf(codes));
        return this;
    }

    /**
     * Discovers providers, resolves the config, opens the selected provider, creates the state
     * directory and opens the store, wiring one injector ({@link FactoryAssembly}). Everything is
     * validated before that directory is created.
     */
    public SandboxFactory build() {
        return FactoryAssembly.build(settings());
    }

    /**
     * The configuration {@link #build()} would use, every value with its source, secrets masked;
     * discovers providers and validates like {@code build()}, but opens and creates nothing.
     *
     * @param overrideSource how to name the source of a value set on this builder ({@code provider},
     *     {@code stateDir}, {@code owner}); the CLI names its flags
     */
    public EffectiveConfig effectiveConfig(Function<String, String> overrideSource) {
        return FactoryAssembly.explain(settings(), overrideSource);
    }

    private FactorySettings settings() {
        return new FactorySettings(Optional.ofNullable(configFile), Optional.ofNullable(configObject), loader(),
                new ConfigOverrides(Optional.ofNullable(provider), Optional.ofNullable(stateDirectory), Optional.ofNullable(owner)),
                environment == null ? System.getenv() : environment,
                workingDirectory == null ? Path.of("").toAbsolutePath() : workingDirectory, hostObjects.build(),
                Optional.ofNullable(sessionStore), sessionListener, Optional.ofNullable(repositoryToken), commandOrigin,
                Optional.ofNullable(journalSize), hostErrorCodes);
    }

    private ClassLoader loader() {
        if (classLoader != null) {
            return classLoader;
        }
        ClassLoader context = Thread.currentThread().getContextClassLoader();
        return context != null ? context : SandboxFactory.class.getClassLoader();
    }
}
