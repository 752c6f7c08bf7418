package io.sandboxfactory.core.internal.config;

import io.sandboxfactory.core.session.Redaction;
import io.sandboxfactory.core.config.DurationFormat;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;
import io.sandboxfactory.core.internal.discovery.DiscoveredProviders;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;
import io.sandboxfactory.core.config.ConfigValue;
import io.sandboxfactory.core.config.EffectiveConfig;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.config.GitConfig;
import io.sandboxfactory.core.config.StoreConfig;

/**
 * Explains a {@link ResolvedConfig}: every key with its effective value and the source that set it
 * (an override beats the environment, which beats the file, which beats the default), secrets masked.
 */
public final class ConfigExplainer {

    /** A key whose value is a secret; {@code passwordEnv} and other {@code ...Env} keys name a variable, which is not. */
    private static final Pattern SECRET = Pattern.compile("(?i).*(pass|secret|token|credential|key|auth|cert|private).*");

    /** The source of a git identity taken from the user running the factory. */
    static final String HOST_GIT_SOURCE = "default: git config --global of the user running the factory";

    private final ObjectMapper mapper = JsonMapper.builder()
            .addModule(new Jdk8Module())
            .addModule(new JavaTimeModule())
            .addModule(new SimpleModule("paths").addSerializer(Path.class, new AsWritten<>(Path.class, Path::toString))
                    .addSerializer(Duration.class, new AsWritten<>(Duration.class, DurationFormat::format)))
            .disable(SerializationFeature.WRITE_DURATIONS_AS_TIMESTAMPS)
            .build();

    /**
     * @param resolved the effective configuration
     * @param base what was resolved from (the file's settings or the host's)
     * @param file the config file, if the settings came from one
     * @param environment the environment the {@code FACTORY_*} overrides were read from
     * @param overrides the overrides given in code
     * @param overrideSource how to name the source of an overridden key ({@code provider}, {@code stateDir}, {@code owner})
     */
    public EffectiveConfig explain(ResolvedConfig resolved, FactoryConfig base, Optional<Path> file, Map<String, String> environment,
                                   ConfigOverrides overrides, DiscoveredProviders providers, Function<String, String> overrideSource) {
        Map<String, String> sources = new LinkedHashMap<>();
        overrides.provider().ifPresent(p -> sources.put("provider", overrideSource.apply("provider")));
        overrides.stateDirectory().ifPresent(p -> sources.put("stateDir", overrideSource.apply("stateDir")));
        overrides.owner().ifPresent(p -> sources.put("owner", overrideSource.apply("owner")));
        ConfigProblems ignored = new ConfigProblems();
        EnvironmentOverrides env = new EnvironmentOverrides(environment);
        EnvironmentOverrides.KEY_OF_VARIABLE.forEach((variable, key) -> {
            if (env.get(variable).isPresent()) {
                sources.putIfAbsent(key, "environment " + variable);
            }
        });
        for (String key : StoreConfig.KEYS) {
            String variable = EnvironmentOverrides.storeVariable(key);
            if (env.get(variable).isPresent()) {
                sources.putIfAbsent("store." + key, "environment " + variable);
            }
        }
        ProviderSectionBinder binder = new ProviderSectionBinder(ConfigMappers.json());
        for (EnvironmentOverrides.ProviderOverride override : env.providerOverrides(providers, binder::keys, ignored)) {
            sources.putIfAbsent("providers." + override.provider().name() + "." + override.key(), "environment " + override.variable());
        }
        List<String> setInBase;
        String baseSource;
        if (file.isPresent()) {
            setInBase = new FactoryConfigLoader(Path.of(System.getProperty("user.home"))).keysSetIn(file.get());
            baseSource = "file " + file.get().toAbsolutePath().normalize();
        } else {
            setInBase = differingFromDefaults(base);
            baseSource = resolved.origin();
        }

        List<ConfigValue> values = new ArrayList<>();
        ConfigKeys.leaves(effectiveTree(resolved)).forEach((key, node) -> {
            String source = sourceOf(key, sources).orElseGet(() -> setInBase.stream().anyMatch(set -> ConfigKeys.within(key, set)
                    || ConfigKeys.within(set, key)) ? baseSource : defaultSource(key, node));
            // A flag under a secret-looking name (exposeToken) holds no secret: true and false are shown.
            values.add(new ConfigValue(key, isSecret(key) && !node.isNull() && !node.isBoolean() ? ConfigValue.MASKED : masked(plain(node)),
                    source));
        });
        return new EffectiveConfig(resolved.origin(), values);
    }

    /** A value under a key not named like a secret that still holds one by its shape ({@code ghp_…}) is masked whole. */
    private static Object masked(Object value) {
        return value instanceof String text && !text.equals(Redaction.shapes().apply(text)) ? ConfigValue.MASKED : value;
    }

    /** A git identity not configured is the host's unless it is the built-in one: which of the two defaults applied. */
    private static String defaultSource(String key, JsonNode value) {
        boolean builtIn = switch (key) {
            case "git.user.name" -> value.asText().equals(GitConfig.DEFAULT_NAME);
            case "git.user.email" -> value.asText().equals(GitConfig.DEFAULT_EMAIL);
            default -> true;
        };
        return builtIn ? "default" : HOST_GIT_SOURCE;
    }

    private static Optional<String> sourceOf(String key, Map<String, String> sources) {
        return sources.entrySet().stream().filter(e -> ConfigKeys.within(key, e.getKey())).map(Map.Entry::getValue).findFirst();
    }

    /**
     * Keys are secret by their own name or the name of a variable under an {@code env} map; {@code
     * setupSecrets} lists names of variables, which are not.
     */
    static boolean isSecret(String key) {
        String last = key.substring(key.lastIndexOf('.') + 1);
        return SECRET.matcher(last).matches() && !last.endsWith("Env") && !last.equals("setupSecrets");
    }

    private ObjectNode effectiveTree(ResolvedConfig resolved) {
        ObjectNode tree = mapper.createObjectNode();
        tree.put("provider", resolved.provider());
        tree.put("stateDir", resolved.stateDirectory().toString());
        tree.put("owner", resolved.owner());
        tree.set("repository", mapper.valueToTree(resolved.repository()));
        tree.set("timeouts", mapper.valueToTree(resolved.timeouts()));
        tree.set("lifecycle", mapper.valueToTree(resolved.lifecycle()));
        tree.set("store", mapper.valueToTree(resolved.store()));
        tree.set("templates", mapper.valueToTree(resolved.templates()));
        tree.set("cache", mapper.valueToTree(resolved.cache()));
        tree.set("journal", mapper.valueToTree(resolved.journal()));
        tree.set("git", mapper.valueToTree(resolved.git()));
        tree.set("egress", mapper.valueToTree(resolved.egress()));
        if (!resolved.environments().isEmpty()) {
            tree.set("environments", mapper.valueToTree(resolved.environments()));
        }
        ObjectNode providers = tree.putObject("providers");
        resolved.providerConfigs().entrySet().stream().sorted(Map.Entry.comparingByKey())
                .forEach(e -> providers.set(e.getKey(), mapper.valueToTree(e.getValue())));
        return tree;
    }

    private List<String> differingFromDefaults(FactoryConfig base) {
        Map<String, JsonNode> given = ConfigKeys.leaves(mapper.valueToTree(base));
        Map<String, JsonNode> defaults = ConfigKeys.leaves(mapper.valueToTree(FactoryConfig.defaults()));
        return given.entrySet().stream().filter(e -> !e.getValue().equals(defaults.get(e.getKey()))).map(Map.Entry::getKey).toList();
    }

    private Object plain(JsonNode node) {
        return node.isNull() ? null : mapper.convertValue(node, Object.class);
    }

    /**
     * A value as a person writes it in the file: a path as its text, not Jackson's {@code file://}
     * URI; a duration as {@code 15m}, not ISO-8601's {@code PT15M}.
     */
    private static final class AsWritten<T> extends StdSerializer<T> {
        private static final long serialVersionUID = 1L;
        private final transient Function<T, String> text;

        AsWritten(Class<T> type, Function<T, String> text) {
            super(type);
            this.text = text;
        }

        @Override
        public void serialize(T value, JsonGenerator gen, SerializerProvider provider) throws IOException {
            gen.writeString(text.apply(value));
        }
    }
}
