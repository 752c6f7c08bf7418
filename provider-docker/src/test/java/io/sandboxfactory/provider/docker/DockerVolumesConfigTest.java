package io.sandboxfactory.provider.docker;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.github.dockerjava.api.model.AccessMode;
import com.github.dockerjava.api.model.Bind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code providers.docker.volumes}: host directories mounted into every container. */
class DockerVolumesConfigTest {

    private final ObjectMapper mapper = new ObjectMapper().enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    @Test
    void noVolumesByDefault() {
        assertThat(DockerProviderConfig.defaults().volumes()).isEmpty();
        assertThat(DockerProviderConfig.builder().build())
                .isEqualTo(DockerProviderConfig.defaults());
    }

    @Test
    void bindsFromAConfigSectionAndBecomesDockerBinds() throws Exception {
        DockerProviderConfig config = mapper.readValue("""
                {"volumes": ["/srv/git:/srv/git:ro", "/var/cache/m2:/root/.m2", "/data:/data:rw"]}
                """, DockerProviderConfig.class);
        assertThat(config.volumes()).containsExactly("/srv/git:/srv/git:ro", "/var/cache/m2:/root/.m2", "/data:/data:rw");
        List<Bind> binds = config.bindMounts().stream().map(BindMount::toBind).toList();
        assertThat(binds).extracting(Bind::getPath).containsExactly("/srv/git", "/var/cache/m2", "/data");
        assertThat(binds).extracting(b -> b.getVolume().getPath()).containsExactly("/srv/git", "/root/.m2", "/data");
        assertThat(binds).extracting(Bind::getAccessMode).containsExactly(AccessMode.ro, AccessMode.rw, AccessMode.rw);
        assertThat(config.toBuilder().build()).isEqualTo(config);
        assertThat(config.toString()).contains("volumes=[/srv/git:/srv/git:ro");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "/only-one-path", "relative:/x", "/x:relative", "/x:/y:rx", "/x:/y:ro:extra", "/x:/", "/x://",
            "name:/data"})
    void rejectsEntriesThatAreNotAbsoluteHostPathMounts(String entry) {
        assertThatThrownBy(() -> DockerProviderConfig.builder().volumes(List.of(entry)).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("volumes[0] '" + entry + "' is invalid; it must be /host/path:/container/path"
                        + " with an optional :ro or :rw, both paths absolute, without ':', and not mounted over the container's /.");
    }

    @Test
    void rejectsTwoMountsAtOneContainerPath() {
        assertThatThrownBy(() -> DockerProviderConfig.builder().volumes(List.of("/a:/data", "/b:/data/:ro")).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("volumes[1] '/b:/data/:ro' is invalid; it mounts a second directory at /data/; each container path may be"
                        + " mounted once.");
    }

    @Test
    void aBadEntryInAConfigFileNamesItsKeyWithinTheSection() {
        assertThatThrownBy(() -> mapper.readValue("{\"volumes\": [\"repos:/repos\"]}", DockerProviderConfig.class))
                .isInstanceOf(ValueInstantiationException.class)
                .hasMessageContaining("volumes[0] 'repos:/repos' is invalid");
    }
}
