package io.sandboxfactory.core.internal.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Key paths of a config tree: objects joined by {@code .}; a list, a scalar or an empty object ends a path. */
final class ConfigKeys {

    private ConfigKeys() {
    }

    static List<String> paths(JsonNode tree) {
        return new ArrayList<>(leaves(tree).keySet());
    }

    /** Every leaf of {@code tree} by its key path, in the tree's order. */
    static Map<String, JsonNode> leaves(JsonNode tree) {
        Map<String, JsonNode> leaves = new LinkedHashMap<>();
        collect("", tree, leaves);
        return leaves;
    }

    private static void collect(String path, JsonNode node, Map<String, JsonNode> leaves) {
        if (node.isObject() && node.size() > 0) {
            node.fields().forEachRemaining(field -> collect(path.isEmpty() ? field.getKey() : path + "." + field.getKey(),
                    field.getValue(), leaves));
        } else if (!path.isEmpty()) {
            leaves.put(path, node);
        }
    }

    /** Whether {@code key} is {@code set} or lies below it. */
    static boolean within(String key, String set) {
        return key.equals(set) || key.startsWith(set + ".");
    }
}
