package io.sandboxfactory.provider.docker;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The config record binds with Jackson the way the framework reads {@code providers.docker}. */
class DockerProviderConfigBindingTest {

    private final ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @Test
    void bindsAConfigSection() throws Exception {
        DockerProviderConfig config = mapper.readValue("""
                {"image": "alpine/git:2.45", "cpus": 2, "memory": "512m", "networkMode": "host",
                 "labels": {"team": "blue"}, "env": {"CI": "1"}, "init": false, "execChannel": false}
                """, DockerProviderConfig.class);
        assertThat(config.image()).isEqualTo("alpine/git:2.45");
        assertThat(config.cpus()).isEqualTo(2.0);
        assertThat(config.memoryBytes()).contains(512L << 20);
        assertThat(config.labels()).isEqualTo(Map.of("team", "blue"));
        assertThat(config.init()).isFalse();
        assertThat(config.execChannel()).isFalse();
        assertThat(config.toBuilder().build()).isEqualTo(config);
        assertThat(config.host()).isEqualTo(DockerProviderConfig.DEFAULT_HOST);
    }

    @Test
    void anEmptySectionIsAllDefaults() throws Exception {
        assertThat(mapper.readValue("{}", DockerProviderConfig.class)).isEqualTo(DockerProviderConfig.defaults());
    }

    @Test
    void acceptsMemoryAsAPlainNumberOfBytes() throws Exception {
        assertThat(mapper.readValue("{\"memory\": 536870912}", DockerProviderConfig.class).memoryBytes()).contains(536870912L);
    }

    @Test
    void reportsBadValuesAndUnknownKeysClearly() {
        assertThatThrownBy(() -> mapper.readValue("{\"memory\": \"lots\"}", DockerProviderConfig.class))
                .isInstanceOf(ValueInstantiationException.class)
                .hasMessageContaining("memory 'lots' is invalid");
        assertThatThrownBy(() -> mapper.readValue("{\"memoryBytes\": 1}", DockerProviderConfig.class))
                .isInstanceOf(UnrecognizedPropertyException.class)
                .hasMessageContaining("memoryBytes");
    }
}
