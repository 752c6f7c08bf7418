package io.sandboxfactory.core.internal.config;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.MapperBuilder;
import com.fasterxml.jackson.databind.deser.std.StdScalarDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import com.fasterxml.jackson.datatype.jdk8.Jdk8Module;
import com.fasterxml.jackson.datatype.jsr310.JavaTimeModule;

import java.io.IOException;
import java.time.Duration;
import io.sandboxfactory.core.config.DurationFormat;

/**
 * The strict Jackson mappers config is read with: unknown properties, duplicate keys, trailing
 * tokens and nulls for primitives are errors; durations accept {@link DurationFormat}; no default
 * typing ever, so config can never name a Java class. New instances per caller: nothing shared.
 */
final class ConfigMappers {

    private ConfigMappers() {
    }

    static ObjectMapper json() {
        return configure(JsonMapper.builder()).build();
    }

    static ObjectMapper yaml() {
        return configure(YAMLMapper.builder()).build();
    }

    private static <M extends ObjectMapper, B extends MapperBuilder<M, B>> B configure(B builder) {
        SimpleModule durations = new SimpleModule("sandbox-factory-durations");
        durations.addDeserializer(Duration.class, new FlexibleDurationDeserializer());
        return builder
                .addModule(new Jdk8Module())
                .addModule(new JavaTimeModule())
                // Registered last so it takes precedence over JavaTimeModule's ISO-only reader.
                .addModule(durations)
                .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES,
                        DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES,
                        DeserializationFeature.FAIL_ON_READING_DUP_TREE_KEY,
                        DeserializationFeature.FAIL_ON_TRAILING_TOKENS,
                        DeserializationFeature.ACCEPT_SINGLE_VALUE_AS_ARRAY)
                .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
                .enable(MapperFeature.BLOCK_UNSAFE_POLYMORPHIC_BASE_TYPES);
    }

    /** Reads a duration from a string in any {@link DurationFormat} form. */
    private static final class FlexibleDurationDeserializer extends StdScalarDeserializer<Duration> {
        private static final long serialVersionUID = 1L;

        FlexibleDurationDeserializer() {
            super(Duration.class);
        }

        @Override
        public Duration deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            if (p.currentToken() != JsonToken.VALUE_STRING) {
                // A list or mapping has no text of its own to show ("[" is no help).
                String given = p.currentToken().isScalarValue() ? "Duration " + p.getText()
                        : p.currentToken() == JsonToken.START_ARRAY ? "A list" : "A mapping";
                throw JsonMappingException.from(p, given + " is invalid; write it as ISO-8601 (PT15M)"
                        + " or as a number with a unit (500ms, 30s, 15m, 2h, 1d).");
            }
            try {
                return DurationFormat.parse(p.getText());
            } catch (IllegalArgumentException e) {
                throw JsonMappingException.from(p, e.getMessage());
            }
        }
    }
}
