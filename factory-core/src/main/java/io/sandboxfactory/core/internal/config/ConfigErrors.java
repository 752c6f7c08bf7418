package io.sandboxfactory.core.internal.config;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import io.sandboxfactory.api.InvalidConfigValueException;


import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import io.sandboxfactory.core.config.InvalidConfigException;

/** Turns Jackson's failures into one sentence naming the full key path and where it came from. */
public final class ConfigErrors {

    /** SnakeYAML's mark line: {@code  in 'reader', line 3, column 10:}. */
    private static final Pattern MARK = Pattern.compile("^\\s+in '[^']*', line (\\d+), column (\\d+):");

    private ConfigErrors() {
    }

    /**
     * @param prefix the key path the bound tree sits at ({@code ""} for the root, {@code providers.local} for a section)
     * @param where where the value came from: {@code in /etc/factory.yaml}, {@code from environment variable X}
     */
    static InvalidConfigException describe(JsonProcessingException e, String prefix, String where) {
        return describe(e, prefix, key -> where);
    }

    /** {@link #describe(JsonProcessingException, String, String)} naming the source of each key with {@code whereOf}. */
    static InvalidConfigException describe(JsonProcessingException e, String prefix, Function<String, String> whereOf) {
        if (e instanceof ValueInstantiationException failed && failed.getCause() instanceof InvalidConfigValueException rejected) {
            String at = path(prefix, failed);
            return new InvalidConfigException(rejected.problems().stream().map(p -> rejected(join(at, p.key()), p, whereOf)).toList(), e);
        }
        String where = whereOf.apply(e instanceof JsonMappingException mapping ? path(prefix, mapping) : prefix);
        if (e instanceof UnrecognizedPropertyException unknown) {
            return invalid("Unknown configuration key '" + path(prefix, unknown) + "' " + where + "; known keys there: "
                    + sorted(unknown.getKnownPropertyIds()) + ".", e);
        }
        if (e instanceof ValueInstantiationException failed && failed.getCause() != null) {
            String key = path(prefix, failed);
            return invalid("Invalid configuration" + (key.isEmpty() ? "" : " at '" + key + "'") + " " + where + ": "
                    + sentence(failed.getCause().getMessage()) + ".", e);
        }
        if (e instanceof InvalidFormatException format && format.getTargetType() != null) {
            return invalid("Invalid value '" + format.getValue() + "' for configuration key '" + path(prefix, format) + "' "
                    + where + "; expected " + format.getTargetType().getSimpleName() + ".", e);
        }
        if (e instanceof JsonMappingException mapping) {
            String key = path(prefix, mapping);
            return invalid("Invalid value" + (key.isEmpty() ? "" : " for configuration key '" + key + "'") + " " + where + ": "
                    + sentence(mapping.getOriginalMessage()) + ".", e);
        }
        if (e instanceof JsonParseException parse) {
            return invalid("Configuration " + where + " cannot be parsed" + at(parse, List.of()) + ": " + parserWords(parse) + ".", e);
        }
        return invalid("Invalid configuration " + where + ": " + sentence(e.getOriginalMessage()) + ".", e);
    }

    /**
     * A config file that is no valid YAML or JSON: the file, line and column, the text of that line
     * and what the parser expected — not only SnakeYAML's context ("while parsing a flow sequence").
     */
    static InvalidConfigException syntax(JsonParseException e, Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException | UncheckedIOException unreadable) {
            lines = List.of();
        }
        return invalid("Config file " + file + " is not valid " + (file.toString().endsWith(".json") ? "JSON" : "YAML")
                + at(e, lines) + ": " + parserWords(e) + ".", e);
    }

    private static String at(JsonParseException e, List<String> lines) {
        if (e.getLocation() == null || e.getLocation().getLineNr() < 1) {
            return "";
        }
        int line = e.getLocation().getLineNr();
        String text = line <= lines.size() ? lines.get(line - 1).strip() : "";
        return " at line " + line + ", column " + e.getLocation().getColumnNr() + (text.isEmpty() ? "" : " (`" + InputText.shown(text) + "`)");
    }

    /**
     * What the parser said: SnakeYAML's full message (in the cause) is the context, the problem and
     * a caret drawing per mark; its unindented lines other than the marks' "in 'reader'" say it in words.
     */
    private static String parserWords(JsonParseException e) {
        String full = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage() : e.getOriginalMessage();
        List<String> lines = full.lines().toList();
        List<String> words = lines.stream().filter(l -> !l.isBlank() && !Character.isWhitespace(l.charAt(0))).map(String::strip).toList();
        if (words.size() > 1 && e.getCause() != null) {
            // Problem first, then the context it arose in, with the context's own mark: where the unclosed thing began.
            int contextLine = lines.indexOf(words.get(0)) + 1;
            Matcher mark = contextLine < lines.size() ? MARK.matcher(lines.get(contextLine)) : MARK.matcher("");
            String context = words.get(0) + (mark.find() ? " that starts at line " + mark.group(1) + ", column " + mark.group(2) : "");
            return sentence(String.join(", ", words.subList(1, words.size())) + " (" + context + ")");
        }
        return sentence(words.isEmpty() ? full : words.get(0));
    }


    /** One value a record rejected, as a sentence naming the full key, the value (unless hidden), where it came from and the rule. */
    static String rejected(String fullKey, InvalidConfigValueException.Problem problem, Function<String, String> whereOf) {
        return "Invalid value" + (problem.value() == null ? "" : " '" + problem.value() + "'") + " for configuration key '" + fullKey
                + "' " + whereOf.apply(fullKey) + "; " + problem.rule() + ".";
    }

    /** {@code key} under {@code prefix}: joined by {@code .}, or directly when it starts with an index. */
    static String join(String prefix, String key) {
        if (prefix.isEmpty()) {
            return key;
        }
        return key.startsWith("[") ? prefix + key : prefix + "." + key;
    }

    static InvalidConfigException invalid(String message) {
        return new InvalidConfigException(List.of(message), null);
    }

    static InvalidConfigException invalid(String message, Throwable cause) {
        return new InvalidConfigException(List.of(message), cause);
    }

    /** {@code prefix} joined with the exception's path: fields by {@code .}, indexes as {@code [i]}. */
    static String path(String prefix, JsonMappingException e) {
        StringBuilder path = new StringBuilder(prefix);
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (path.length() > 0) {
                    path.append('.');
                }
                path.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static List<String> sorted(Collection<Object> ids) {
        return ids == null ? List.of() : ids.stream().map(Objects::toString).sorted().collect(Collectors.toList());
    }

    /** One line without Jackson's trailing location or a trailing period (the caller's sentence adds its own). */
    private static String sentence(String message) {
        String text = String.valueOf(message).strip();
        int newline = text.indexOf('\n');
        if (newline >= 0) {
            text = text.substring(0, newline).strip();
        }
        return text.endsWith(".") ? text.substring(0, text.length() - 1) : text;
    }

    /**
     * The values provider {@code name} rejected (in its {@code open}), each named {@code
     * providers.<name>.<key>} with where {@code origins} says it came from.
     */
    public static InvalidConfigException rejectedBy(String name, InvalidConfigValueException rejected, ConfigOrigins origins) {
        return new InvalidConfigException(rejected.problems().stream()
                .map(p -> rejected(join("providers." + name, p.key()), p, origins::where)).toList(), rejected);
    }
}
