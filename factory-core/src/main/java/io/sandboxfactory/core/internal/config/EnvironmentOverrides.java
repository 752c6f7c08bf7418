package io.sandboxfactory.core.internal.config;

import io.sandboxfactory.core.DiscoveredProvider;
import io.sandboxfactory.core.internal.discovery.DiscoveredProviders;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;
import io.sandboxfactory.core.config.StoreConfig;

/**
 * Reads the {@code FACTORY_*} environment variables that override config; the variables and how
 * {@code FACTORY_PROVIDERS_<NAME>_<KEY>} maps to a provider key are documented on {@link
 * ConfigResolver}. Blank values count as unset.
 */
final class EnvironmentOverrides {

    static final String PROVIDER = "FACTORY_PROVIDER";
    static final String STATE_DIR = "FACTORY_STATE_DIR";
    static final String OWNER = "FACTORY_OWNER";
    static final String CLONE_URL_TEMPLATE = "FACTORY_REPOSITORY_CLONE_URL_TEMPLATE";
    static final String DEFAULT_BASE_BRANCH = "FACTORY_REPOSITORY_DEFAULT_BASE_BRANCH";
    static final String ALLOWED_FILE_ROOTS = "FACTORY_REPOSITORY_ALLOWED_FILE_ROOTS";
    static final String SETUP_TIMEOUT = "FACTORY_TIMEOUTS_SETUP";
    static final String COMMAND_TIMEOUT = "FACTORY_TIMEOUTS_COMMAND";
    static final String PROBE_TIMEOUT = "FACTORY_TIMEOUTS_PROBE";
    static final String NETWORK_TIMEOUT = "FACTORY_TIMEOUTS_NETWORK";
    static final String CHECKOUT_TIMEOUT = "FACTORY_TIMEOUTS_CHECKOUT";
    static final String TEARDOWN_TIMEOUT = "FACTORY_TIMEOUTS_TEARDOWN";
    static final String STOP_AFTER_IDLE = "FACTORY_LIFECYCLE_STOP_AFTER_IDLE";
    static final String DELETE_AFTER_IDLE = "FACTORY_LIFECYCLE_DELETE_AFTER_IDLE";
    static final String JOURNAL_MAX_ENTRIES = "FACTORY_JOURNAL_MAX_ENTRIES";
    static final String TEMPLATE_INPUTS = "FACTORY_REPOSITORY_TEMPLATE_INPUTS";
    static final String SETUP = "FACTORY_REPOSITORY_SETUP";
    static final String TEARDOWN = "FACTORY_REPOSITORY_TEARDOWN";
    static final String SETUP_SECRETS = "FACTORY_REPOSITORY_SETUP_SECRETS";
    static final String EXPOSE_TOKEN = "FACTORY_REPOSITORY_EXPOSE_TOKEN";
    static final String PUSH_NAMESPACE = "FACTORY_REPOSITORY_PUSH_NAMESPACE";
    static final String TEMPLATES_AUTO_BUILD = "FACTORY_TEMPLATES_AUTO_BUILD";
    static final String CACHE_ENABLED = "FACTORY_CACHE_ENABLED";
    static final String CACHE_MAX_IDLE = "FACTORY_CACHE_MAX_IDLE";
    static final String GIT_USER_NAME = "FACTORY_GIT_USER_NAME";
    static final String GIT_USER_EMAIL = "FACTORY_GIT_USER_EMAIL";
    static final String EGRESS_MODE = "FACTORY_EGRESS_MODE";
    static final String EGRESS_ALLOW = "FACTORY_EGRESS_ALLOW";
    static final String EGRESS_PROXY_ADDRESS = "FACTORY_EGRESS_PROXY_ADDRESS";

    /** The key each variable of a fixed name sets (the {@code store.*} and provider variables are derived). */
    static final Map<String, String> KEY_OF_VARIABLE = Map.ofEntries(Map.entry(PROVIDER, "provider"), Map.entry(STATE_DIR, "stateDir"),
            Map.entry(OWNER, "owner"), Map.entry(CLONE_URL_TEMPLATE, "repository.cloneUrlTemplate"),
            Map.entry(DEFAULT_BASE_BRANCH, "repository.defaultBaseBranch"), Map.entry(ALLOWED_FILE_ROOTS, "repository.allowedFileRoots"),
            Map.entry(TEMPLATE_INPUTS, "repository.templateInputs"), Map.entry(SETUP, "repository.setup"),
            Map.entry(TEARDOWN, "repository.teardown"), Map.entry(SETUP_SECRETS, "repository.setupSecrets"),
            Map.entry(EXPOSE_TOKEN, "repository.exposeToken"), Map.entry(PUSH_NAMESPACE, "repository.pushNamespace"),
            Map.entry(TEMPLATES_AUTO_BUILD, "templates.autoBuild"),
            Map.entry(CACHE_ENABLED, "cache.enabled"), Map.entry(CACHE_MAX_IDLE, "cache.maxIdle"),
            Map.entry(SETUP_TIMEOUT, "timeouts.setup"), Map.entry(COMMAND_TIMEOUT, "timeouts.command"),
            Map.entry(PROBE_TIMEOUT, "timeouts.probe"), Map.entry(NETWORK_TIMEOUT, "timeouts.network"),
            Map.entry(CHECKOUT_TIMEOUT, "timeouts.checkout"), Map.entry(TEARDOWN_TIMEOUT, "timeouts.teardown"),
            Map.entry(STOP_AFTER_IDLE, "lifecycle.stopAfterIdle"), Map.entry(DELETE_AFTER_IDLE, "lifecycle.deleteAfterIdle"),
            Map.entry(JOURNAL_MAX_ENTRIES, "journal.maxEntries"), Map.entry(GIT_USER_NAME, "git.user.name"),
            Map.entry(GIT_USER_EMAIL, "git.user.email"), Map.entry(EGRESS_MODE, "egress.mode"), Map.entry(EGRESS_ALLOW, "egress.allow"),
            Map.entry(EGRESS_PROXY_ADDRESS, "egress.proxyAddress"));

    private static final String STORE_PREFIX = "FACTORY_STORE_";

    private static final String PROVIDERS_PREFIX = "FACTORY_PROVIDERS_";
    /** One {@code FACTORY_PROVIDERS_*} variable, resolved to the provider and key it sets. */
    record ProviderOverride(String variable, DiscoveredProvider provider, String key, String value) {
    }

    private final Map<String, String> env = new TreeMap<>();

    /** Reads the variables; which of them set nothing is {@link #checkKnown}'s to say, once the config is known. */
    EnvironmentOverrides(Map<String, String> environment) {
        environment.forEach((name, value) -> {
            if (name != null && name.startsWith("FACTORY_") && value != null && !value.isBlank()) {
                env.put(name, value.trim());
            }
        });
    }

    /**
     * Records a problem for every variable that is no key's, none the factory reads itself and none
     * of {@code named} (the variables the config names); the {@code FACTORY_PROVIDERS_*} ones are
     * {@link #providerOverrides}'s to check.
     */
    void checkKnown(DiscoveredProviders providers, Function<DiscoveredProvider, List<String>> keysOf, Set<String> named,
                    ConfigProblems problems) {
        List<String> variables = new ArrayList<>(KEY_OF_VARIABLE.keySet());
        StoreConfig.KEYS.forEach(key -> variables.add(storeVariable(key)));
        for (DiscoveredProvider provider : providers.all()) {
            keysOf.apply(provider).forEach(key -> variables.add(providerVariable(provider.name(), key)));
        }
        new UnknownVariables(variables).check(env.keySet().stream().filter(name -> !name.startsWith(PROVIDERS_PREFIX)).toList(),
                named, problems);
    }

    /** {@code docker}, {@code networkMode} → {@code FACTORY_PROVIDERS_DOCKER_NETWORK_MODE}. */
    static String providerVariable(String provider, String key) {
        return PROVIDERS_PREFIX + envForm(provider) + "_" + envForm(key);
    }

    /** {@code passwordEnv} → {@code FACTORY_STORE_PASSWORD_ENV}. */
    static String storeVariable(String key) {
        return STORE_PREFIX + envForm(key);
    }

    Optional<String> get(String variable) {
        return Optional.ofNullable(env.get(variable));
    }

    /** Every {@code FACTORY_PROVIDERS_*} variable, sorted, that names a discovered provider and one of its keys; the others go to {@code problems}. */
    List<ProviderOverride> providerOverrides(DiscoveredProviders providers, Function<DiscoveredProvider, List<String>> keysOf,
                                             ConfigProblems problems) {
        List<ProviderOverride> overrides = new ArrayList<>();
        env.forEach((variable, value) -> problems.run(() -> {
            if (!variable.startsWith(PROVIDERS_PREFIX)) {
                return;
            }
            String rest = variable.substring(PROVIDERS_PREFIX.length());
            DiscoveredProvider provider = providers.all().stream()
                    .filter(p -> rest.startsWith(envForm(p.name()) + "_"))
                    .max(Comparator.comparingInt(p -> p.name().length()))
                    .orElseThrow(() -> ConfigErrors.invalid("Environment variable " + variable
                            + " names no discovered sandbox provider after " + PROVIDERS_PREFIX + "; available: "
                            + providers.names() + "."));
            String keyPart = rest.substring(envForm(provider.name()).length() + 1);
            List<String> keys = keysOf.apply(provider);
            String key = keys.stream().filter(k -> envForm(k).equals(keyPart)).findFirst()
                    .orElseThrow(() -> ConfigErrors.invalid("Unknown configuration key 'providers." + provider.name() + "."
                            + keyPart + "' from environment variable " + variable + "; known keys there: " + keys + "."));
            overrides.add(new ProviderOverride(variable, provider, key, value));
        }));
        return overrides;
    }

    /** {@code networkMode} → {@code NETWORK_MODE}, {@code my-prov} → {@code MY_PROV}. */
    static String envForm(String name) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (Character.isUpperCase(c) && i > 0 && (Character.isLowerCase(name.charAt(i - 1)) || Character.isDigit(name.charAt(i - 1)))) {
                out.append('_');
            }
            out.append(c == '-' || c == '.' ? '_' : c);
        }
        return out.toString().toUpperCase(Locale.ROOT);
    }
}
