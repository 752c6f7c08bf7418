package io.sandboxfactory.cli.mcp;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** Builds the JSON schema of a tool's arguments: an object of named, described properties. */
final class ToolSchema {

    private final Map<String, Object> properties = new LinkedHashMap<>();
    private final List<String> required = new ArrayList<>();

    static ToolSchema object() {
        return new ToolSchema();
    }

    ToolSchema string(String name, boolean mandatory, String description) {
        return property(name, mandatory, Map.of("type", "string", "description", description));
    }

    ToolSchema integer(String name, String description) {
        return property(name, false, Map.of("type", "integer", "minimum", 0, "description", description));
    }

    ToolSchema bool(String name, String description) {
        return property(name, false, Map.of("type", "boolean", "description", description));
    }

    ToolSchema strings(String name, String description) {
        return property(name, false, Map.of("type", "array", "items", Map.of("type", "string"), "description", description));
    }

    ToolSchema stringMap(String name, String description) {
        return property(name, false, Map.of("type", "object", "additionalProperties", Map.of("type", "string"), "description", description));
    }

    ToolSchema objects(String name, ToolSchema item, String description) {
        return property(name, false, Map.of("type", "array", "items", item.build(), "description", description));
    }

    ToolSchema enumeration(String name, List<String> values, String description) {
        return property(name, false, Map.of("type", "string", "enum", values, "description", description));
    }

    private ToolSchema property(String name, boolean mandatory, Map<String, Object> schema) {
        properties.put(name, schema);
        if (mandatory) {
            required.add(name);
        }
        return this;
    }

    Set<String> names() {
        return properties.keySet();
    }

    Map<String, Object> build() {
        Map<String, Object> schema = new LinkedHashMap<>();
        schema.put("type", "object");
        schema.put("properties", properties);
        schema.put("required", required);
        schema.put("additionalProperties", false);
        return schema;
    }
}
