package io.sandboxfactory.provider.docker;

import com.github.dockerjava.core.DockerClientConfig;
import com.github.dockerjava.core.RemoteApiVersion;
import io.sandboxfactory.api.SandboxException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DockerConnectionTest {

    private static final URI HOST = URI.create("unix:///var/run/docker.sock");

    @Test
    void speaksTheEnginesVersionWhenDockerJavaKnowsIt() {
        assertThat(DockerConnection.choose("1.41", "1.12", HOST)).isEqualTo(RemoteApiVersion.VERSION_1_41);
        assertThat(DockerConnection.choose("1.24", null, HOST)).isEqualTo(RemoteApiVersion.VERSION_1_24);
    }

    @Test
    void capsANewerEngineAtTheNewestVersionDockerJavaSpeaks() {
        assertThat(DockerConnection.choose("1.51", "1.44", HOST)).isEqualTo(DockerConnection.NEWEST_SUPPORTED);
        assertThat(DockerConnection.choose("2.3", null, HOST)).isEqualTo(DockerConnection.NEWEST_SUPPORTED);
    }

    @Test
    void refusesEnginesItCannotTalkTo() {
        assertThatThrownBy(() -> DockerConnection.choose("1.51", "1.50", HOST))
                .isInstanceOf(SandboxException.class)
                .hasMessage("The Docker engine at unix:///var/run/docker.sock needs API 1.50 or newer; the docker provider"
                        + " speaks at most 1.44.");
        assertThatThrownBy(() -> DockerConnection.choose("1.23", null, HOST))
                .hasMessage("The Docker engine at unix:///var/run/docker.sock speaks API 1.23; the docker provider needs 1.24 or newer.");
        assertThatThrownBy(() -> DockerConnection.choose(null, null, HOST)).isInstanceOf(SandboxException.class);
    }

    @Test
    void clientConfigHoldsOnlyOurValues() {
        DockerProviderConfig config = DockerProviderConfig.builder().host("tcp://127.0.0.1:2375").build();
        try (DockerConnection connection = new DockerConnection(config)) {
            DockerClientConfig clientConfig = connection.clientConfig(RemoteApiVersion.VERSION_1_41);
            assertThat(clientConfig.getDockerHost()).isEqualTo(URI.create("tcp://127.0.0.1:2375"));
            assertThat(clientConfig.getApiVersion()).isEqualTo(RemoteApiVersion.VERSION_1_41);
            assertThat(clientConfig.getRegistryUsername()).isNull();
            assertThat(clientConfig.getRegistryUrl()).isNull();
            assertThat(clientConfig.effectiveAuthConfig("alpine")).isNull();
            assertThat(clientConfig.getAuthConfigurations().getConfigs()).isEmpty();
            assertThat(clientConfig.getSSLConfig()).isNull();
        }
    }

    @Test
    void readsNoAmbientSettingsUnlessAskedTo() {
        // docker-java's defaults read DOCKER_HOST from system properties (and the environment, which a
        // JVM cannot change; DockerEngineIT covers that in a forked JVM).
        String previous = System.getProperty("DOCKER_HOST");
        System.setProperty("DOCKER_HOST", "tcp://127.0.0.1:9");
        try {
            assertThat(DockerConnection.resolveEndpoint(DockerProviderConfig.defaults()).host()).isEqualTo(HOST);
            assertThat(DockerConnection.resolveEndpoint(DockerProviderConfig.builder().useEnvironment(true).build()).host())
                    .isEqualTo(URI.create("tcp://127.0.0.1:9"));
        } finally {
            if (previous == null) {
                System.clearProperty("DOCKER_HOST");
            } else {
                System.setProperty("DOCKER_HOST", previous);
            }
        }
    }

    @Test
    void anEngineThatDoesNotAnswerFailsClearlyAndIsRetriedLater(@TempDir Path dir) {
        String socket = "unix://" + dir.resolve("no-docker.sock");
        try (DockerConnection connection = new DockerConnection(DockerProviderConfig.builder().host(socket).build())) {
            for (int attempt = 0; attempt < 2; attempt++) {
                assertThatThrownBy(connection::client)
                        .isInstanceOf(SandboxException.class)
                        .hasMessageStartingWith("The Docker engine at " + socket + " is not usable: ")
                        .hasMessageEndingWith("Start Docker (for tests: scripts/docker-up.sh) or set providers.docker.host.")
                        .satisfies(e -> assertThat(((SandboxException) e).code()).isEqualTo("DOCKER_UNAVAILABLE"));
            }
        }
    }

    @Test
    void aClosedConnectionRefusesToReopen() {
        DockerConnection connection = new DockerConnection(DockerProviderConfig.defaults());
        connection.close();
        assertThatThrownBy(connection::client).isInstanceOfSatisfying(SandboxException.class,
                e -> assertThat(e.code()).isEqualTo("PROVIDER_CLOSED")).hasMessageContaining("is closed");
    }
}
