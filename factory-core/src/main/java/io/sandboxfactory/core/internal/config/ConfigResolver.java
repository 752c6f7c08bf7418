package io.sandboxfactory.core.internal.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import io.sandboxfactory.core.DiscoveredProvider;
import io.sandboxfactory.core.internal.discovery.DiscoveredProviders;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;
import io.sandboxfactory.core.config.CacheConfig;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.config.GitConfig;
import io.sandboxfactory.core.internal.git.HostGitIdentity;
import io.sandboxfactory.core.config.InvalidConfigException;
import io.sandboxfactory.core.config.EgressConfig;
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
 *   <tr><td>{@code FACTORY_REPOSITORY_SETUP_SECRETS}</td><td>{@code repository.setupSecrets} (one name, or a YAML flow
 *       list {@code [NPM_TOKEN, PIP_TOKEN]})</td></tr>
 *   <tr><td>{@code FACTORY_REPOSITORY_EXPOSE_TOKEN}</td><td>{@code repository.exposeToken} ({@code true} or {@code false})</td></tr>
 *   <tr><td>{@code FACTORY_REPOSITORY_PUSH_NAMESPACE}</td><td>{@code repository.pushNamespace}</td></tr>
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
        SectionOverrides sectionOverrides = new SectionOverrides(env, problems, this::scalar);
        RepositoryDefaults repository = sectionOverrides.repository(config.repository());
        Timeouts timeouts = sectionOverrides.timeouts(config.timeouts());
        Lifecycle lifecycle = sectionOverrides.lifecycle(config.lifecycle());
        StoreConfig store = sectionOverrides.store(config.store());
        TemplatesConfig templates = sectionOverrides.templates(config.templates());
        CacheConfig cache = sectionOverrides.cache(config.cache());
        JournalConfig journal = sectionOverrides.journal(config.journal());
        EgressConfig egress = sectionOverrides.egress(config.egress());
        GitConfig git = git(config.git(), sectionOverrides.gitUser(config.git().user()));
        // Checked last: the variables the config names to read (store.passwordEnv, setup secrets, a provider's passEnv) are not typos.
        Set<String> named = new TreeSet<>(UnknownVariables.namedIn(json.valueToTree(sections)));
        store.passwordEnv().ifPresent(named::add);
        named.addAll(repository.setupSecrets());
        env.checkKnown(providers, binder::keys, named, problems);
        problems.throwIfAny();
        return new ResolvedConfig(provider, stateDirectory, owner, repository, timeouts, lifecycle, config.environments(), bound,
                origin, store, templates, cache, journal, providerOrigins, git, egress);
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

    /**
     * The identity of commits in sessions, each part from the environment, else the file, else the
     * host's global git config (read only when a part is missing), else the built-in default.
     */
    private GitConfig git(GitConfig fromFile, GitConfig.User configured) {
        GitConfig.User host = configured.name() != null && configured.email() != null ? configured : new HostGitIdentity(home).read();
        return GitConfig.of(first(configured.name(), host.name(), GitConfig.DEFAULT_NAME),
                first(configured.email(), host.email(), GitConfig.DEFAULT_EMAIL));
    }

    private static String first(String configured, String host, String fallback) {
        return configured != null ? configured : host != null ? host : fallback;
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
