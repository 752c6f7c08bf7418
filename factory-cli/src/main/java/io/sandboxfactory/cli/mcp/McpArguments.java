package io.sandboxfactory.cli.mcp;

import io.sandboxfactory.cli.BadInputException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The arguments of one MCP tool call, read by name with the type the tool's schema declares; a
 * missing, unknown or mistyped argument is bad input naming the argument, the tool and the rule.
 */
final class McpArguments {

    private final String tool;
    private final Map<String, Object> values;

    McpArguments(String tool, Map<String, Object> values, Set<String> known) {
        this.tool = tool;
        this.values = values == null ? Map.of() : values;
        for (String name : this.values.keySet()) {
            if (!known.contains(name)) {
                throw new BadInputException("Tool " + tool + " has no argument '" + name + "'; its arguments are "
                        + String.join(", ", known.stream().sorted().toList()) + ".");
            }
        }
    }

    String string(String name) {
        return optionalString(name).orElseThrow(() -> new BadInputException("Tool " + tool + " needs the argument '" + name + "'."));
    }

    Optional<String> optionalString(String name) {
        Object value = values.get(name);
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof String text)) {
            throw mistyped(name, "a string", value);
        }
        return Optional.of(text);
    }

    boolean flag(String name) {
        Object value = values.get(name);
        if (value == null) {
            return false;
        }
        if (!(value instanceof Boolean bool)) {
            throw mistyped(name, "true or false", value);
        }
        return bool;
    }

    /** A whole number of at least {@code min}; {@code fallback} when absent. */
    long number(String name, long fallback, long min) {
        Object value = values.get(name);
        if (value == null) {
            return fallback;
        }
        if (!(value instanceof Number number) || number.doubleValue() != Math.rint(number.doubleValue())) {
            throw mistyped(name, "a whole number", value);
        }
        if (number.longValue() < min) {
            throw new BadInputException("Argument '" + name + "' of tool " + tool + " is " + number.longValue() + "; it must be at least " + min + ".");
        }
        return number.longValue();
    }

    List<String> strings(String name) {
        Object value = values.get(name);
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
            throw mistyped(name, "an array of strings", value);
        }
        return list.stream().map(String.class::cast).toList();
    }

    /** An object of string values, in the order given. */
    Map<String, String> stringMap(String name) {
        Object value = values.get(name);
        if (value == null) {
            return Map.of();
        }
        if (!(value instanceof Map<?, ?> map) || !map.values().stream().allMatch(String.class::isInstance)) {
            throw mistyped(name, "an object of string values", value);
        }
        Map<String, String> copy = new LinkedHashMap<>();
        map.forEach((k, v) -> copy.put(String.valueOf(k), (String) v));
        return copy;
    }

    /** An array of objects, each read as the arguments of {@code name} with its own {@code known} keys. */
    List<McpArguments> objects(String name, Set<String> known) {
        Object value = values.get(name);
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list) || !list.stream().allMatch(Map.class::isInstance)) {
            throw mistyped(name, "an array of objects", value);
        }
        List<McpArguments> items = new ArrayList<>();
        for (Object item : list) {
            @SuppressWarnings("unchecked")
            Map<String, Object> fields = (Map<String, Object>) item;
            items.add(new McpArguments(tool + " (in '" + name + "')", fields, known));
        }
        return items;
    }

    private BadInputException mistyped(String name, String expected, Object value) {
        String shown = String.valueOf(value);
        if (shown.length() > 40) {
            shown = shown.substring(0, 40) + "…";
        }
        return new BadInputException("Argument '" + name + "' of tool " + tool + " must be " + expected + ", not " + shown + ".");
    }
}
