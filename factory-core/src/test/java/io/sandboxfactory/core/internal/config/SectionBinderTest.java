package io.sandboxfactory.core.internal.config;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sandboxfactory.api.InvalidConfigValueException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import io.sandboxfactory.core.config.InvalidConfigException;

/** A failing section is taken apart so that every error in it is reported, each once. */
class SectionBinderTest {

    private final ObjectMapper mapper = ConfigMappers.json();

    /** One entry of a list; rejects a bad mode by its own key. */
    record Item(String mode) {
        Item {
            if ("bad".equals(mode)) {
                throw new InvalidConfigValueException("mode", mode, "it must not be bad");
            }
        }
    }

    /** Requires a size, so a size of the wrong type must not be reported a second time as missing. */
    record Section(Integer size, List<Item> items, Map<String, String> labels, String token) {
        Section {
            InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
            if (size == null) {
                problems.reject("size", null, "it is required");
            }
            if (token != null && token.length() < 8) {
                problems.reject("token", null, "it must be at least 8 characters");
            }
            problems.throwIfAny();
        }
    }

    @JsonIgnoreProperties(ignoreUnknown = true)
    record Lenient(Integer size) {
    }

    private InvalidConfigException bindFailing(String json, Class<?> type) throws Exception {
        JsonNode tree = mapper.readTree(json);
        return catchThrowableOfType(InvalidConfigException.class, () -> new SectionBinder(mapper).bind(tree, mapper.constructType(type),
                "providers.demo", key -> key.endsWith("token") ? "from environment variable FACTORY_PROVIDERS_DEMO_TOKEN" : "in f.yaml"));
    }

    @Test
    void everyUnknownKeyAndMismatchIsReportedDownIntoListsOfRecordsAndMaps() throws Exception {
        InvalidConfigException e = bindFailing("""
                {"size": "x", "items": [{"mode": "ok", "extra": 1}, {"oops": 2}], "labels": {"a": [1]}, "colour": 1, "token": "short"}
                """, Section.class);

        assertThat(e.problems()).containsExactly(
                "Invalid value 'x' for configuration key 'providers.demo.size' in f.yaml; expected Integer.",
                "Unknown configuration key 'providers.demo.items[0].extra' in f.yaml; known keys there: [mode].",
                "Unknown configuration key 'providers.demo.items[1].oops' in f.yaml; known keys there: [mode].",
                "Invalid value for configuration key 'providers.demo.labels.a' in f.yaml: Cannot deserialize value of type"
                        + " `java.lang.String` from Array value (token `JsonToken.START_ARRAY`).",
                "Unknown configuration key 'providers.demo.colour' in f.yaml; known keys there: [items, labels, size, token].",
                "Invalid value for configuration key 'providers.demo.token' from environment variable FACTORY_PROVIDERS_DEMO_TOKEN;"
                        + " it must be at least 8 characters.");
    }

    @Test
    void aRejectedValueOfANestedRecordIsNamedUnderItsIndex() throws Exception {
        InvalidConfigException e = bindFailing("{\"size\": 1, \"items\": [{\"mode\": \"ok\"}, {\"mode\": \"bad\"}]}", Section.class);

        assertThat(e.problems()).containsExactly(
                "Invalid value 'bad' for configuration key 'providers.demo.items[1].mode' in f.yaml; it must not be bad.");
    }

    @Test
    void aRecordThatIgnoresUnknownKeysGetsOnlyItsRealErrors() throws Exception {
        InvalidConfigException e = bindFailing("{\"size\": \"x\", \"colour\": 1}", Lenient.class);

        assertThat(e.problems()).containsExactly("Invalid value 'x' for configuration key 'providers.demo.size' in f.yaml; expected Integer.");
    }

    @Test
    void aValidSectionBindsInOnePass() throws Exception {
        Object bound = new SectionBinder(mapper).bind(mapper.readTree("{\"size\": 2}"), mapper.constructType(Section.class),
                "providers.demo", key -> "in f.yaml");

        assertThat(bound).isEqualTo(new Section(2, null, null, null));
    }
}
