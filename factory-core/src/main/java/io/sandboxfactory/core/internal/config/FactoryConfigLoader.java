package io.sandboxfactory.core.internal.config;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import io.sandboxfactory.core.config.CacheConfig;
import io.sandboxfactory.core.config.EgressConfig;
import io.sandboxfactory.core.config.EnvironmentConfig;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.config.GitConfig;
import io.sandboxfactory.core.config.InvalidConfigException;
import io.sandboxfactory.core.config.JournalConfig;
import io.sandboxfactory.core.config.Lifecycle;
import io.sandboxfactory.core.config.RepositoryDefaults;
import io.sandboxfactory.core.config.StatePaths;
import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.core.config.TemplatesConfig;
import io.sandboxfactory.core.config.Timeouts;

/**
 * Reads a {@link FactoryConfig} from a YAML ({@code .yaml}, {@code .yml}) or JSON ({@code .json})
 * file, chosen by extension. Strict: an unknown key fails with its full path and the file; an empty
 * file means every default. {@code stateDir} may start with {@code ~/}; a relative one is resolved
 * against the file's directory. Provider sections are kept as plain values (see {@link ConfigResolver}).
 * Each top-level section is bound on its own, so one load reports the errors of every section at once.
 */
public final class FactoryConfigLoader {

    /** The top-level keys of a file, in the order they are bound. */
    static final List<String> KEYS = List.of("provider", "stateDir", "owner", "repository", "timeouts", "lifecycle",
            "environments", "providers", "store", "templates", "cache", "journal", "git", "egress");

    private final Path home;

    /** A loader expanding {@code ~} to {@code home}. */
    public FactoryConfigLoader(Path home) {
        this.home = home.toAbsolutePath().normalize();
    }

    /** The file's settings; every error in it is reported at once (an {@link InvalidConfigException} listing them). */
    public FactoryConfig load(Path file) {
        ConfigProblems problems = new ConfigProblems();
        FactoryConfig config = load(file, problems);
        problems.throwIfAny();
        return config;
    }

    /** The file's settings, each section that fails read as absent after its error is recorded in {@code problems}. */
    FactoryConfig load(Path file, ConfigProblems problems) {
        Path absolute = file.toAbsolutePath().normalize();
        String where = "in " + absolute;
        ObjectMapper mapper = problems.check(() -> mapperFor(absolute), () -> null);
        if (mapper == null) {
            return FactoryConfig.defaults();
        }
        ObjectNode tree = problems.check(() -> tree(mapper, absolute), mapper::createObjectNode);
        for (Iterator<String> names = tree.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!KEYS.contains(name)) {
                problems.add("Unknown configuration key '" + name + "' " + where + "; known keys there: "
                        + KEYS.stream().sorted().toList() + ".");
            }
        }
        Sections sections = new Sections(mapper, tree, where, problems);
        FactoryConfig config = new FactoryConfig(
                nonBlank(sections.bind("provider", String.class)),
                nonBlank(sections.bind("stateDir", String.class)).map(dir -> resolvePath(dir, absolute.getParent())),
                nonBlank(sections.bind("owner", String.class)),
                sections.bind("repository", RepositoryDefaults.class),
                sections.bind("timeouts", Timeouts.class),
                sections.bind("lifecycle", Lifecycle.class),
                sections.bind("environments", new TypeReference<Map<String, EnvironmentConfig>>() { }),
                providerSections(mapper, tree.get("providers"), where, problems),
                sections.bind("store", StoreConfig.class),
                sections.bind("templates", TemplatesConfig.class),
                sections.bind("cache", CacheConfig.class),
                sections.bind("journal", JournalConfig.class),
                sections.bind("git", GitConfig.class),
                sections.bind("egress", EgressConfig.class));
        return config;
    }

    /**
     * The key paths the file sets ({@code store.url}, {@code providers.docker.labels.team}); a list is
     * one key. For telling a value from the file from a default.
     */
    public List<String> keysSetIn(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        return ConfigKeys.paths(tree(mapperFor(absolute), absolute));
    }

    private static ObjectNode tree(ObjectMapper mapper, Path absolute) {
        if (!Files.isRegularFile(absolute)) {
            throw ConfigErrors.invalid("Config file " + absolute + (Files.exists(absolute) ? " is not a regular file." : " does not exist."));
        }
        try {
            JsonNode tree = mapper.readTree(absolute.toFile());
            if (tree == null || tree.isMissingNode() || tree.isNull()) {
                return mapper.createObjectNode();
            }
            if (!(tree instanceof ObjectNode object)) {
                throw ConfigErrors.invalid("Config file " + absolute + " must hold a mapping of keys to values at the top level.");
            }
            return object;
        } catch (JsonParseException e) {
            throw ConfigErrors.syntax(e, absolute);
        } catch (JsonProcessingException e) {
            throw ConfigErrors.describe(e, "", "in " + absolute);
        } catch (IOException e) {
            throw ConfigErrors.invalid("Config file " + absolute + " could not be read: " + e.getMessage() + ".", e);
        }
    }

    /** Binds one top-level section at a time, reporting every error in it; a failing section is recorded and read as absent. */
    private record Sections(ObjectMapper mapper, ObjectNode tree, String where, ConfigProblems problems) {

        <T> T bind(String key, Class<T> type) {
            return bind(key, mapper.constructType(type));
        }

        <T> T bind(String key, TypeReference<T> type) {
            return bind(key, mapper.constructType(type));
        }

        private <T> T bind(String key, JavaType type) {
            JsonNode node = tree.get(key);
            if (node == null || node.isNull()) {
                return null;
            }
            return problems.check(() -> new SectionBinder(mapper).bind(node, type, key, k -> where), () -> null);
        }
    }

    private static ObjectMapper mapperFor(Path file) {
        String name = file.getFileName().toString().toLowerCase(Locale.ROOT);
        if (name.endsWith(".yaml") || name.endsWith(".yml")) {
            return ConfigMappers.yaml();
        }
        if (name.endsWith(".json")) {
            return ConfigMappers.json();
        }
        throw ConfigErrors.invalid("Config file " + file + " has an unsupported extension; use .yaml, .yml or .json.");
    }

    private static Map<String, Map<String, Object>> providerSections(ObjectMapper mapper, JsonNode providers, String where,
                                                                     ConfigProblems problems) {
        Map<String, Map<String, Object>> sections = new LinkedHashMap<>();
        if (providers == null || providers.isNull()) {
            return sections;
        }
        if (!providers.isObject()) {
            problems.add("Configuration key 'providers' " + where + " must be a mapping of provider names to their sections.");
            return sections;
        }
        providers.fields().forEachRemaining(entry -> {
            String name = entry.getKey();
            JsonNode section = entry.getValue();
            if (section == null || section.isNull()) {
                sections.put(name, Map.of());
            } else if (section.isObject()) {
                sections.put(name, mapper.convertValue(section, new TypeReference<Map<String, Object>>() { }));
            } else {
                problems.add("Configuration key 'providers." + name + "' " + where
                        + " must be a mapping of the provider's keys to values.");
            }
        });
        return sections;
    }

    private static Optional<String> nonBlank(String value) {
        return value == null || value.isBlank() ? Optional.empty() : Optional.of(value.trim());
    }

    /** {@code ~} and {@code ~/x} expand to the home directory; relative paths resolve against {@code base}. */
    Path resolvePath(String text, Path base) {
        return StatePaths.resolve(text, home, base);
    }
}
