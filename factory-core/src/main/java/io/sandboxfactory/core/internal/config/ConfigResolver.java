package io.sandboxfactory.core.internal.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.core.discovery.DiscoveredProvider;
import io.sandboxfactory.core.internal.discovery.DiscoveredProviders;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import io.sandboxfactory.core.config.CacheConfig;
import io.sandboxfactory.core.config.DurationFormat;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.config.GitConfig;
import io.sandboxfactory.core.internal.git.HostGitIdentity;
import io.sandboxfactory.core.config.InvalidConfigException;
import io.sandboxfactory.core.config.JournalConfig;
import io.sandboxfactory.core.config.Lifecycle;
import io.sandboxfactory.core.config.RepositoryDefaults;
import io.sandboxfactory.core.config.StatePaths;
import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.core.config.TemplatesConfig;
import io.sandboxfactory.core.config.Timeouts;

/**
 * Combines a {@link FactoryConfig}, the environment ({@link EnvironmentOverrides}) and builder
 * {@link ConfigOverrides} into a {@link ResolvedConfig}, validating everything without touching
 * the file system beyond reads.
 *
 * <p>Precedence for every setting: builder &gt; environment &gt; file &gt; default. Defaults:
 * provider {@code local}, state directory {@code ~/.sandbox-factory}, owner from the user name, git
 * identity from the user's {@code git config --global} (see {@link HostGitIdentity}), else {@value
 * GitConfig#DEFAULT_NAME} &lt;{@value GitConfig#DEFAULT_EMAIL}&gt;, each part on its own.
 * Provider sections are checked against the discovered providers (a section for an unknown name is
 * an error) and bound to their config types. Every failure is one sentence naming the key and where
 * the value came from (file or variable).
 *
 * <p>Environment variables (blank values count as unset):
 * <table>
 *   <caption>Overrides</caption>
 *   <tr><th>variable</th><th>sets</th></tr>
 *   <tr><td>{@code FACTORY_PROVIDER}</td><td>{@code provider}</td></tr>
 *   <tr><td>{@code FACTORY_STATE_DIR}</td><td>{@code stateDir} ({@code ~/} expands; relative to the working directory)</td></tr>
 *   <tr><td>{@code FACTORY_OWNER}</td><td>{@code owner}</td></tr>
 *   <tr><td>{@code FACTORY_REPOSITORY_CLONE_URL_TEMPLATE}</td><td>{@code repository.cloneUrlTemplate}</td></tr>
 *   <tr><td>{@code FACTORY_REPOSITORY_DEFAULT_BASE_BRANCH}</td><td>{@code repository.defaultBaseBranch}</td></tr>
 *   <tr><td>{@code FACTORY_REPOSITORY_ALLOWED_FILE_ROOTS}</td><td>{@code repository.allowedFileRoots} (separated by {@code :})</td></tr>
 *   <tr><td>{@code FACTORY_TIMEOUTS_SETUP}</td><td>{@code timeouts.setup}</td></tr>
 *   <tr><td>{@code FACTORY_TIMEOUTS_COMMAND}</td><td>{@code timeouts.command}</td></tr>
 *   <tr><td>{@code FACTORY_TIMEOUTS_PROBE}, {@code _NETWORK}, {@code _CHECKOUT}, {@code _TEARDOWN}</td><td>{@code timeouts.probe},
 *       {@code .network}, {@code .checkout}, {@code .teardown}</td></tr>
 *   <tr><td>{@code FACTORY_LIFECYCLE_STOP_AFTER_IDLE}</td><td>{@code lifecycle.stopAfterIdle}</td></tr>
 *   <tr><td>{@code FACTORY_LIFECYCLE_DELETE_AFTER_IDLE}</td><td>{@code lifecycle.deleteAfterIdle}</td></tr>
 *   <tr><td>{@code FACTORY_JOURNAL_MAX_ENTRIES}</td><td>{@code journal.maxEntries}</td></tr>
 *   <tr><td>{@code FACTORY_GIT_USER_NAME}, {@code FACTORY_GIT_USER_EMAIL}</td><td>{@code git.user.name}, {@code git.user.email}</td></tr>
 *   <tr><td>{@code FACTORY_REPOSITORY_SETUP}, {@code _TEARDOWN}</td><td>{@code repository.setup}, {@code .teardown} (one
 *       command, or a YAML flow list {@code [npm ci, make]})</td></tr>
 *   <tr><td>{@code FACTORY_REPOSITORY_TEMPLATE_INPUTS}</td><td>{@code repository.templateInputs} (separated by {@code :})</td></tr>
 *   <tr><td>{@code FACTORY_TEMPLATES_AUTO_BUILD}</td><td>{@code templates.autoBuild} ({@code true} or {@code false})</td></tr>
 *   <tr><td>{@code FACTORY_CACHE_ENABLED}</td><td>{@code cache.enabled} ({@code true} or {@code false})</td></tr>
 *   <tr><td>{@code FACTORY_CACHE_MAX_IDLE}</td><td>{@code cache.maxIdle}</td></tr>
 *   <tr><td>{@code FACTORY_STORE_<KEY>} ({@code TYPE}, {@code URL}, {@code USER}, {@code PASSWORD_ENV}, {@code SCHEMA},
 *       {@code POOL_SIZE}, {@code LEASE_TTL}, {@code CONNECT_TIMEOUT})</td><td>{@code store.<key>}</td></tr>
 *   <tr><td>{@code FACTORY_PROVIDERS_<NAME>_<KEY>}</td><td>{@code providers.<name>.<key>}</td></tr>
 * </table>
 * {@code NAME} is the provider name upper-cased with {@code -} written {@code _}; {@code KEY} is the
 * camelCase key upper-cased with {@code _} at word boundaries, so {@code
 * FACTORY_PROVIDERS_DOCKER_NETWORK_MODE} sets {@code providers.docker.networkMode}. Only top-level
 * keys of a section can be set; values are parsed as YAML scalars ({@code true}, {@code 8}, {@code
 * 15m}; a flow list {@code [a, b]} also works). Any other {@code FACTORY_*} variable fails like an
 * unknown key in a file, naming the variable and the closest key's variable, unless the factory
 * reads it itself ({@code FACTORY_DAEMON}, {@code FACTORY_DAEMON_IDLE}, {@code FACTORY_CDS},
 * {@code FACTORY_PLUGINS}) or the config names it as a variable to read (a key ending in {@code
 * Env}: {@code store.passwordEnv}, {@code providers.local.passEnv}).
 */
public final class ConfigResolver {

    /** The provider used when nothing selects one. */
    public static final String DEFAULT_PROVIDER = "local";
    /** The state directory used when nothing sets one, under the user's home. */
    public static final String DEFAULT_STATE_DIR = ".sandbox-factory";
    /** What an owner name must match (it ends up in resource names and labels). */
    public static final Pattern OWNER = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_.-]{0,62}");

    private final ObjectMapper json = ConfigMappers.json();
    /** Made on first use (an environment override of a provider key): most resolutions never parse YAML. */
    private ObjectMapper yaml;
    private final ProviderSectionBinder binder = new ProviderSectionBinder(json);
    private final Path home;
    private final String userName;
    private final Path workingDirectory;

    /** Resolves relative paths against this process's working directory. */
    public ConfigResolver(Path home, String userName) {
        this(home, userName, Path.of("").toAbsolutePath());
    }

    /**
     * @param home the user's home, for {@code ~} and the default state directory
     * @param userName the user's name, for the default owner
     * @param workingDirectory what a relative state directory (override or {@code FACTORY_STATE_DIR}) resolves against
     */
    public ConfigResolver(Path home, String userName, Path workingDirectory) {
        this.home = home.toAbsolutePath().normalize();
        this.userName = userName == null ? "" : userName;
        this.workingDirectory = workingDirectory.toAbsolutePath().normalize();
    }

    /**
     * @param config the file's settings (or the host's, or {@link FactoryConfig#defaults()})
     * @param origin where {@code config} came from, e.g. the file path; used in messages as {@code in <origin>}
     * @param environment the environment to take {@code FACTORY_*} overrides from
     */
    public ResolvedConfig resolve(FactoryConfig config, String origin, Map<String, String> environment,
                                  ConfigOverrides overrides, DiscoveredProviders providers) {
        return resolve(config, origin, environment, overrides, providers, new ConfigProblems());
    }

    /**
     * Loads {@code file} and resolves it: the errors of the file, the environment and the overrides
     * are reported together, as one {@link InvalidConfigException} (or a single error as it is).
     */
    public ResolvedConfig resolveFile(FactoryConfigLoader loader, Path file, Map<String, String> environment,
                                      ConfigOverrides overrides, DiscoveredProviders providers) {
        ConfigProblems problems = new ConfigProblems();
        FactoryConfig config = loader.load(file, problems);
        return resolve(config, file.toAbsolutePath().normalize().toString(), environment, overrides, providers, problems);
    }

    private ResolvedConfig resolve(FactoryConfig config, String origin, Map<String, String> environment,
                                   ConfigOverrides overrides, DiscoveredProviders providers, ConfigProblems problems) {
        String inOrigin = "in " + origin;
        EnvironmentOverrides env = new EnvironmentOverrides(environment);

        String provider = overrides.provider()
                .or(() -> env.get(EnvironmentOverrides.PROVIDER))
                .or(config::provider)
                .orElse(DEFAULT_PROVIDER);
        // Each section is bound once, from the file's keys with the environment's on top, so that
        // every error of a section comes out together, each named with where its value came from.
        Map<String, ObjectNode> sections = new LinkedHashMap<>();
        Map<String, String> origins = new LinkedHashMap<>();
        config.providers().forEach((name, values) -> problems.run(() -> {
            providers.find(name).orElseThrow(() -> ConfigErrors.invalid(
                    "Configuration section 'providers." + name + "' " + inOrigin + " names a sandbox provider that was not"
                            + " discovered; available: " + providers.names() + "."));
            ObjectNode section = json.valueToTree(values);
            sections.put(name, section);
            section.fieldNames().forEachRemaining(key -> origins.put("providers." + name + "." + key, inOrigin));
        }));
        for (EnvironmentOverrides.ProviderOverride override : env.providerOverrides(providers, binder::keys, problems)) {
            String name = override.provider().name();
            sections.computeIfAbsent(name, n -> JsonNodeFactory.instance.objectNode()).set(override.key(), scalar(override.value()));
            origins.put("providers." + name + "." + override.key(), "from environment variable " + override.variable());
        }
        problems.run(() -> {
            providers.require(provider);
            // The framework owns the section: an absent one is the provider's defaults, never null.
            sections.computeIfAbsent(provider, n -> JsonNodeFactory.instance.objectNode());
        });
        ConfigOrigins providerOrigins = new ConfigOrigins(origins, "(not set " + inOrigin + ", so its default)");
        Map<String, Object> bound = new LinkedHashMap<>();
        sections.forEach((name, section) -> problems.run(() ->
                bound.put(name, binder.bind(providers.require(name), section, providerOrigins::where))));

        Path stateDirectory = problems.check(() -> stateDirectory(config, env, overrides), () -> home.resolve(DEFAULT_STATE_DIR));
        String owner = problems.check(() -> owner(config, env, overrides, inOrigin), this::defaultOwner);
        RepositoryDefaults repository = commands(repository(config.repository(), env, problems), env, problems);
        Timeouts timeouts = timeouts(config.timeouts(), env, problems);
        Lifecycle lifecycle = lifecycle(config.lifecycle(), env, problems);
        StoreConfig store = store(config.store(), env, problems);
        TemplatesConfig templates = templates(config.templates(), env, problems);
        CacheConfig cache = cache(config.cache(), env, problems);
        JournalConfig journal = journal(config.journal(), env, problems);
        GitConfig git = git(config.git(), env, problems);
        // Checked last: the variables the config names to read (store.passwordEnv, a provider's passEnv) are not typos.
        Set<String> named = new TreeSet<>(UnknownVariables.namedIn(json.valueToTree(sections)));
        store.passwordEnv().ifPresent(named::add);
        env.checkKnown(providers, binder::keys, named, problems);
        problems.throwIfAny();
        return new ResolvedConfig(provider, stateDirectory, owner, repository, timeouts, lifecycle, config.environments(), bound,
                origin, store, templates, cache, journal, providerOrigins, git);
    }

    private Path stateDirectory(FactoryConfig config, EnvironmentOverrides env, ConfigOverrides overrides) {
        Path dir = overrides.stateDirectory().map(p -> workingDirectory.resolve(p).normalize())
                .or(() -> env.get(EnvironmentOverrides.STATE_DIR).map(text -> StatePaths.resolve(text, home, workingDirectory)))
                .or(() -> config.stateDir().map(p -> p.toAbsolutePath().normalize()))
                .orElse(home.resolve(DEFAULT_STATE_DIR));
        if (Files.exists(dir) && !Files.isDirectory(dir)) {
            throw ConfigErrors.invalid("State directory " + dir + " exists but is not a directory.");
        }
        return dir;
    }

    private String owner(FactoryConfig config, EnvironmentOverrides env, ConfigOverrides overrides, String inOrigin) {
        record Choice(String value, String where) {
        }
        Choice choice = overrides.owner().map(o -> new Choice(o, "given to the factory builder"))
                .or(() -> env.get(EnvironmentOverrides.OWNER).map(o -> new Choice(o, "from environment variable " + EnvironmentOverrides.OWNER)))
                .or(() -> config.owner().map(o -> new Choice(o, inOrigin)))
                .orElseGet(() -> new Choice(defaultOwner(), "derived from the user name"));
        if (!OWNER.matcher(choice.value()).matches()) {
            throw ConfigErrors.invalid("Owner '" + choice.value() + "' " + choice.where() + " is invalid; it must match "
                    + OWNER.pattern() + ".");
        }
        return choice.value();
    }

    private String defaultOwner() {
        String sanitized = userName.replaceAll("[^A-Za-z0-9_.-]", "-").replaceAll("^[^A-Za-z0-9]+", "");
        if (sanitized.length() > 63) {
            sanitized = sanitized.substring(0, 63);
        }
        return sanitized.isEmpty() ? "sandbox-factory" : sanitized;
    }

    private static RepositoryDefaults repository(RepositoryDefaults fromFile, EnvironmentOverrides env, ConfigProblems problems) {
        RepositoryDefaults result = fromFile;
        Optional<String> template = env.get(EnvironmentOverrides.CLONE_URL_TEMPLATE);
        if (template.isPresent()) {
            result = fromEnv(problems, EnvironmentOverrides.CLONE_URL_TEMPLATE, "repository", () -> new RepositoryDefaults(template.get(),
                    fromFile.defaultBaseBranch(), fromFile.setup(), fromFile.teardown(), fromFile.allowedFileRoots(), fromFile.templateInputs()), fromFile);
        }
        Optional<String> base = env.get(EnvironmentOverrides.DEFAULT_BASE_BRANCH);
        if (base.isPresent()) {
            RepositoryDefaults current = result;
            result = fromEnv(problems, EnvironmentOverrides.DEFAULT_BASE_BRANCH, "repository", () -> new RepositoryDefaults(current.cloneUrlTemplate(),
                    Optional.of(base.get()), current.setup(), current.teardown(), current.allowedFileRoots(), current.templateInputs()), current);
        }
        Optional<String> roots = env.get(EnvironmentOverrides.ALLOWED_FILE_ROOTS);
        if (roots.isPresent()) {
            RepositoryDefaults current = result;
            List<String> list = Arrays.stream(roots.get().split(":")).map(String::trim).filter(r -> !r.isEmpty()).toList();
            result = fromEnv(problems, EnvironmentOverrides.ALLOWED_FILE_ROOTS, "repository", () -> new RepositoryDefaults(current.cloneUrlTemplate(),
                    current.defaultBaseBranch(), current.setup(), current.teardown(), list, current.templateInputs()), current);
        }
        Optional<String> inputs = env.get(EnvironmentOverrides.TEMPLATE_INPUTS);
        if (inputs.isPresent()) {
            RepositoryDefaults current = result;
            List<String> list = Arrays.stream(inputs.get().split(":")).map(String::trim).filter(f -> !f.isEmpty()).toList();
            result = fromEnv(problems, EnvironmentOverrides.TEMPLATE_INPUTS, "repository", () -> new RepositoryDefaults(current.cloneUrlTemplate(),
                    current.defaultBaseBranch(), current.setup(), current.teardown(), current.allowedFileRoots(), list), current);
        }
        return result;
    }

    /** {@code FACTORY_REPOSITORY_SETUP} and {@code _TEARDOWN}: one command, or several as a YAML flow list {@code [npm ci, make]}. */
    private RepositoryDefaults commands(RepositoryDefaults fromFile, EnvironmentOverrides env, ConfigProblems problems) {
        RepositoryDefaults result = fromFile;
        Optional<String> setup = env.get(EnvironmentOverrides.SETUP);
        if (setup.isPresent()) {
            result = fromEnv(problems, EnvironmentOverrides.SETUP, "repository", () -> new RepositoryDefaults(fromFile.cloneUrlTemplate(),
                    fromFile.defaultBaseBranch(), commandList(setup.get()), fromFile.teardown(), fromFile.allowedFileRoots(),
                    fromFile.templateInputs()), fromFile);
        }
        Optional<String> teardown = env.get(EnvironmentOverrides.TEARDOWN);
        if (teardown.isPresent()) {
            RepositoryDefaults current = result;
            result = fromEnv(problems, EnvironmentOverrides.TEARDOWN, "repository", () -> new RepositoryDefaults(current.cloneUrlTemplate(),
                    current.defaultBaseBranch(), current.setup(), commandList(teardown.get()), current.allowedFileRoots(),
                    current.templateInputs()), current);
        }
        return result;
    }

    private List<String> commandList(String text) {
        JsonNode node = scalar(text);
        if (!node.isArray()) {
            return List.of(text);
        }
        List<String> commands = new java.util.ArrayList<>();
        node.forEach(element -> commands.add(element.asText()));
        return commands;
    }

    private static TemplatesConfig templates(TemplatesConfig fromFile, EnvironmentOverrides env, ConfigProblems problems) {
        Optional<String> autoBuild = env.get(EnvironmentOverrides.TEMPLATES_AUTO_BUILD);
        return autoBuild.isEmpty() ? fromFile
                : fromEnv(problems, EnvironmentOverrides.TEMPLATES_AUTO_BUILD, "templates", () -> new TemplatesConfig(flag(autoBuild.get())), fromFile);
    }

    private static CacheConfig cache(CacheConfig fromFile, EnvironmentOverrides env, ConfigProblems problems) {
        CacheConfig result = fromFile;
        Optional<String> enabled = env.get(EnvironmentOverrides.CACHE_ENABLED);
        if (enabled.isPresent()) {
            result = fromEnv(problems, EnvironmentOverrides.CACHE_ENABLED, "cache", () -> new CacheConfig(flag(enabled.get()), fromFile.maxIdle()),
                    fromFile);
        }
        Optional<String> maxIdle = env.get(EnvironmentOverrides.CACHE_MAX_IDLE);
        if (maxIdle.isPresent()) {
            CacheConfig current = result;
            result = fromEnv(problems, EnvironmentOverrides.CACHE_MAX_IDLE, "cache",
                    () -> new CacheConfig(current.enabled(), DurationFormat.parse(maxIdle.get())), current);
        }
        return result;
    }

    /** Only the words YAML and JSON write for a boolean: a typo must not silently turn a feature off. */
    private static boolean flag(String text) {
        return switch (text.strip()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException("'" + text + "' is neither true nor false.");
        };
    }

    /** Each {@code FACTORY_TIMEOUTS_*} variable and how it changes the {@code timeouts} section. */
    private static final Map<String, BiFunction<Timeouts, Duration, Timeouts>> TIMEOUT_VARIABLES = Map.of(
            EnvironmentOverrides.SETUP_TIMEOUT, Timeouts::withSetup, EnvironmentOverrides.COMMAND_TIMEOUT, Timeouts::withCommand,
            EnvironmentOverrides.PROBE_TIMEOUT, Timeouts::withProbe, EnvironmentOverrides.NETWORK_TIMEOUT, Timeouts::withNetwork,
            EnvironmentOverrides.CHECKOUT_TIMEOUT, Timeouts::withCheckout, EnvironmentOverrides.TEARDOWN_TIMEOUT, Timeouts::withTeardown);

    private static Timeouts timeouts(Timeouts fromFile, EnvironmentOverrides env, ConfigProblems problems) {
        Timeouts result = fromFile;
        for (Map.Entry<String, BiFunction<Timeouts, Duration, Timeouts>> variable : new TreeMap<>(TIMEOUT_VARIABLES).entrySet()) {
            Optional<String> value = env.get(variable.getKey());
            if (value.isPresent()) {
                Timeouts current = result;
                result = fromEnv(problems, variable.getKey(), "timeouts", () -> variable.getValue().apply(current, DurationFormat.parse(value.get())),
                        current);
            }
        }
        return result;
    }

    private static Lifecycle lifecycle(Lifecycle fromFile, EnvironmentOverrides env, ConfigProblems problems) {
        Lifecycle result = fromFile;
        Optional<String> stop = env.get(EnvironmentOverrides.STOP_AFTER_IDLE);
        if (stop.isPresent()) {
            result = fromEnv(problems, EnvironmentOverrides.STOP_AFTER_IDLE, "lifecycle", () -> new Lifecycle(Optional.of(DurationFormat.parse(stop.get())),
                    fromFile.deleteAfterIdle()), fromFile);
        }
        Optional<String> delete = env.get(EnvironmentOverrides.DELETE_AFTER_IDLE);
        if (delete.isPresent()) {
            Lifecycle current = result;
            result = fromEnv(problems, EnvironmentOverrides.DELETE_AFTER_IDLE, "lifecycle", () -> new Lifecycle(current.stopAfterIdle(),
                    Optional.of(DurationFormat.parse(delete.get()))), current);
        }
        return result;
    }

    private static JournalConfig journal(JournalConfig fromFile, EnvironmentOverrides env, ConfigProblems problems) {
        Optional<String> size = env.get(EnvironmentOverrides.JOURNAL_MAX_ENTRIES);
        if (size.isEmpty()) {
            return fromFile;
        }
        return fromEnv(problems, EnvironmentOverrides.JOURNAL_MAX_ENTRIES, "journal", () -> {
            try {
                return new JournalConfig(Integer.valueOf(size.get().strip()));
            } catch (NumberFormatException e) {
                throw new InvalidInputException(ErrorCode.INVALID_CONFIG, "'" + size.get() + "' is not a whole number of entries.", e);
            }
        }, fromFile);
    }

    /**
     * The identity of commits in sessions, each part from the environment, else the file, else the
     * host's global git config (read only when a part is missing), else the built-in default.
     */
    private GitConfig git(GitConfig fromFile, EnvironmentOverrides env, ConfigProblems problems) {
        GitConfig.User file = fromFile.user();
        Optional<String> name = env.get(EnvironmentOverrides.GIT_USER_NAME);
        Optional<String> email = env.get(EnvironmentOverrides.GIT_USER_EMAIL);
        GitConfig.User configured = file;
        if (name.isPresent()) {
            configured = fromEnv(problems, EnvironmentOverrides.GIT_USER_NAME, "git.user", () -> new GitConfig.User(name.get(), file.email()), file);
        }
        if (email.isPresent()) {
            GitConfig.User current = configured;
            configured = fromEnv(problems, EnvironmentOverrides.GIT_USER_EMAIL, "git.user", () -> new GitConfig.User(current.name(), email.get()),
                    current);
        }
        GitConfig.User host = configured.name() != null && configured.email() != null ? configured : new HostGitIdentity(home).read();
        return GitConfig.of(first(configured.name(), host.name(), GitConfig.DEFAULT_NAME),
                first(configured.email(), host.email(), GitConfig.DEFAULT_EMAIL));
    }

    private static String first(String configured, String host, String fallback) {
        return configured != null ? configured : host != null ? host : fallback;
    }

    /** Each {@code FACTORY_STORE_<KEY>} variable replaces that key of the {@code store:} section. */
    private static StoreConfig store(StoreConfig fromFile, EnvironmentOverrides env, ConfigProblems problems) {
        StoreConfig result = fromFile;
        for (String key : StoreConfig.KEYS) {
            String variable = EnvironmentOverrides.storeVariable(key);
            Optional<String> value = env.get(variable);
            if (value.isPresent()) {
                StoreConfig current = result;
                result = fromEnv(problems, variable, "store", () -> current.with(key, value.get()), current);
            }
        }
        return result;
    }

    /**
     * {@code build}'s value, or {@code unchanged} after recording why the variable's value is invalid;
     * a value a record rejects is named by its key under {@code section}.
     */
    private static <T> T fromEnv(ConfigProblems problems, String variable, String section, Supplier<T> build, T unchanged) {
        return problems.check(() -> {
            try {
                return build.get();
            } catch (InvalidConfigValueException e) {
                throw new InvalidConfigException(e.problems().stream().map(p -> ConfigErrors.rejected(ConfigErrors.join(section, p.key()),
                        p, key -> "from environment variable " + variable)).toList(), e);
            } catch (IllegalArgumentException e) {
                throw ConfigErrors.invalid("Invalid value from environment variable " + variable + ": " + e.getMessage(), e);
            }
        }, () -> unchanged);
    }

    /** A YAML scalar ({@code 8}, {@code true}, {@code 15m}); flow collections only when written as {@code [..]} or {@code {..}}. */
    private JsonNode scalar(String text) {
        if (yaml == null) {
            yaml = ConfigMappers.yaml();
        }
        try {
            JsonNode node = yaml.readTree(text);
            if (node == null || node.isMissingNode()) {
                return TextNode.valueOf(text);
            }
            if (node.isContainerNode() && !(text.startsWith("[") || text.startsWith("{"))) {
                return TextNode.valueOf(text);
            }
            return node;
        } catch (JsonProcessingException e) {
            return TextNode.valueOf(text);
        }
    }
}
