package io.sandboxfactory.core.internal.config;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.BeanDescription;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sandboxfactory.api.InvalidConfigValueException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import io.sandboxfactory.core.config.InvalidConfigException;

/**
 * Binds one config section to its type and, when that fails, finds every error in it rather than
 * the first one Jackson stops at: each unknown key and each value of the wrong type (key by key, in
 * records, and in the lists and maps of records they hold), then every value the record itself
 * rejects ({@link InvalidConfigValueException}), bound from what is left. A value already reported
 * is left out of that last bind, so its default cannot add a second error about the same key.
 */
final class SectionBinder {

    private final ObjectMapper mapper;

    SectionBinder(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * The section bound to {@code type}.
     *
     * @param prefix the key path of {@code node}: {@code timeouts}, {@code providers.docker}
     * @param whereOf where the value of a full key came from: {@code in /etc/factory.yaml}
     * @throws InvalidConfigException listing every error of the section
     */
    <T> T bind(JsonNode node, JavaType type, String prefix, Function<String, String> whereOf) {
        try {
            return mapper.treeToValue(node, type);
        } catch (JsonProcessingException | IllegalArgumentException first) {
            // The common case (a valid section) costs one bind; only a failing one is taken apart.
            List<String> errors = new ArrayList<>();
            List<String> removed = new ArrayList<>();
            JsonNode rest = node.deepCopy();
            prune(rest, type, prefix, whereOf, errors, removed);
            bindRest(rest, type, prefix, whereOf, errors, removed);
            if (errors.isEmpty()) {
                throw first instanceof JsonProcessingException jackson ? ConfigErrors.describe(jackson, prefix, whereOf)
                        : ConfigErrors.invalid(invalid(prefix, whereOf, first), first);
            }
            throw new InvalidConfigException(errors, first);
        }
    }

    /** Records and removes each unknown key and each value its property cannot hold, descending into records. */
    private void prune(JsonNode node, JavaType type, String path, Function<String, String> whereOf, List<String> errors,
                       List<String> removed) {
        if (node instanceof ObjectNode object && type.getRawClass().isRecord()) {
            pruneRecord(object, type, path, whereOf, errors, removed);
        } else if (node instanceof ArrayNode array && type.isCollectionLikeType()) {
            for (int i = 0; i < array.size(); i++) {
                prune(array.get(i), type.getContentType(), path + "[" + i + "]", whereOf, errors, removed);
            }
        } else if (node instanceof ObjectNode object && type.isMapLikeType()) {
            object.fields().forEachRemaining(entry -> prune(entry.getValue(), type.getContentType(),
                    ConfigErrors.join(path, entry.getKey()), whereOf, errors, removed));
        }
    }

    private void pruneRecord(ObjectNode object, JavaType type, String path, Function<String, String> whereOf, List<String> errors,
                             List<String> removed) {
        BeanDescription description = mapper.getDeserializationConfig().introspect(type);
        Map<String, JavaType> properties = new LinkedHashMap<>();
        for (BeanPropertyDefinition property : description.findProperties()) {
            if (property.couldDeserialize()) {
                properties.put(property.getName(), property.getPrimaryType());
            }
        }
        // A record that declares it takes other keys (an any-setter, ignoreUnknown, ignored names) is taken at its word.
        JsonIgnoreProperties.Value ignorals = mapper.getDeserializationConfig()
                .getDefaultPropertyIgnorals(type.getRawClass(), description.getClassInfo());
        boolean takesAnyKey = description.findAnySetterAccessor() != null || ignorals.getIgnoreUnknown();
        for (String name : fieldNames(object)) {
            String key = ConfigErrors.join(path, name);
            JavaType propertyType = properties.get(name);
            if (propertyType == null) {
                if (!takesAnyKey && !ignorals.findIgnoredForDeserialization().contains(name)) {
                    errors.add("Unknown configuration key '" + key + "' " + whereOf.apply(key) + "; known keys there: "
                            + properties.keySet().stream().sorted().toList() + ".");
                    object.remove(name);
                    removed.add(key);
                }
                continue;
            }
            JsonNode value = object.get(name);
            if (holdsRecords(propertyType) && value.isContainerNode()) {
                prune(value, propertyType, key, whereOf, errors, removed);
                continue;
            }
            try {
                mapper.treeToValue(value, propertyType);
            } catch (JsonProcessingException e) {
                errors.addAll(ConfigErrors.describe(e, key, whereOf).problems());
                object.remove(name);
                removed.add(key);
            } catch (IllegalArgumentException e) {
                errors.add(invalid(key, whereOf, e));
                object.remove(name);
                removed.add(key);
            }
        }
    }

    /**
     * Binds what is left after pruning and records its errors; a mapping (the {@code environments:}
     * section) entry by entry, so each entry its record rejects is reported, not only the first.
     */
    private void bindRest(JsonNode rest, JavaType type, String path, Function<String, String> whereOf, List<String> errors,
                          List<String> removed) {
        if (rest instanceof ObjectNode object && type.isMapLikeType()) {
            object.fields().forEachRemaining(entry -> bindRest(entry.getValue(), type.getContentType(),
                    ConfigErrors.join(path, entry.getKey()), whereOf, errors, removed));
            return;
        }
        try {
            mapper.treeToValue(rest, type);
        } catch (JsonProcessingException e) {
            errors.addAll(remaining(e, path, whereOf, removed));
        } catch (IllegalArgumentException e) {
            errors.add(invalid(path, whereOf, e));
        }
    }

    /** The errors of the bind of what is left; a value the record rejects is dropped when it sits under a removed key. */
    private static List<String> remaining(JsonProcessingException e, String prefix, Function<String, String> whereOf, List<String> removed) {
        if (e instanceof ValueInstantiationException failed && failed.getCause() instanceof InvalidConfigValueException rejected) {
            String at = ConfigErrors.path(prefix, failed);
            List<String> lines = new ArrayList<>();
            for (InvalidConfigValueException.Problem problem : rejected.problems()) {
                String key = ConfigErrors.join(at, problem.key());
                if (removed.stream().noneMatch(gone -> ConfigKeys.within(key, gone) || key.startsWith(gone + "["))) {
                    lines.add(ConfigErrors.rejected(key, problem, whereOf));
                }
            }
            return lines;
        }
        return ConfigErrors.describe(e, prefix, whereOf).problems();
    }

    private static boolean holdsRecords(JavaType type) {
        if (type.isContainerType() && type.getContentType() != null) {
            return holdsRecords(type.getContentType());
        }
        return type.getRawClass().isRecord();
    }

    private static String invalid(String key, Function<String, String> whereOf, Exception e) {
        return "Invalid configuration at '" + key + "' " + whereOf.apply(key) + ": " + e.getMessage();
    }

    private static List<String> fieldNames(ObjectNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
