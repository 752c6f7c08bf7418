package io.sandboxfactory.core.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a {@link FactoryConfig} from a YAML ({@code .yaml}, {@code .yml}) or JSON ({@code .json})
 * file, chosen by extension. Strict: an unknown key fails with its full path and the file; an empty
 * file means every default. {@code stateDir} may start with {@code ~/}; a relative one is resolved
 * against the file's directory. Provider sections are kept as trees (see {@link ConfigResolver}).
 */
public final class FactoryConfigLoader {

    private final Path home;

    /** A loader expanding {@code ~} to {@code home}. */
    public FactoryConfigLoader(Path home) {
        this.home = home.toAbsolutePath().normalize();
    }

    public FactoryConfig load(Path file) {
        Path absolute = file.toAbsolutePath().normalize();
        String where = "in " + absolute;
        ObjectMapper mapper = mapperFor(absolute);
        if (!Files.isRegularFile(absolute)) {
            throw ConfigErrors.invalid("Config file " + absolute + (Files.exists(absolute) ? " is not a regular file." : " does not exist."));
        }
        ConfigDocument document;
        try {
            JsonNode tree = mapper.readTree(absolute.toFile());
            if (tree == null || tree.isMissingNode() || tree.isNull()) {
                tree = JsonNodeFactory.instance.objectNode();
            }
            if (!tree.isObject()) {
                throw ConfigErrors.invalid("Config file " + absolute + " must hold a mapping of keys to values at the top level.");
            }
            document = mapper.treeToValue(tree, ConfigDocument.class);
        } catch (JsonProcessingException e) {
            throw ConfigErrors.describe(e, "", where);
        } catch (IOException e) {
            throw ConfigErrors.invalid("Config file " + absolute + " could not be read: " + e.getMessage() + ".", e);
        }
        return new FactoryConfig(
                nonBlank(document.provider()),
                nonBlank(document.stateDir()).map(dir -> resolvePath(dir, absolute.getParent())),
                nonBlank(document.owner()),
                document.repository(),
                document.timeouts(),
                document.lifecycle(),
                document.environments(),
                sections(document.providers(), where),
                document.store(),
                document.templates(),
                document.cache(),
                document.journal());
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

    private static Map<String, ObjectNode> sections(Map<String, JsonNode> providers, String where) {
        Map<String, ObjectNode> sections = new LinkedHashMap<>();
        if (providers == null) {
            return sections;
        }
        providers.forEach((name, section) -> {
            if (section == null || section.isNull()) {
                sections.put(name, JsonNodeFactory.instance.objectNode());
            } else if (section instanceof ObjectNode object) {
                sections.put(name, object);
            } else {
                throw ConfigErrors.invalid("Configuration key 'providers." + name + "' " + where
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
