package io.sandboxfactory.provider.docker;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.dockerjava.core.RemoteApiVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** How the provider reaches the engine: the API version it negotiates and the configuration it ignores. */
@ExtendWith(RequiresDockerEngine.class)
class DockerEngineIT {

    private static final String SOCKET = "/var/run/docker.sock";

    @Test
    void negotiatesTheEnginesApiVersionCappedAtWhatDockerJavaSpeaks() throws IOException {
        String engine = engineApiVersion();
        String expected = capped(engine);
        try (DockerConnection connection = new DockerConnection(DockerProviderConfig.defaults())) {
            assertThat(connection.apiVersion().getVersion()).isEqualTo(expected);
            // And the client speaks it: a versioned request succeeds.
            assertThat(connection.client().versionCmd().exec().getApiVersion()).isEqualTo(engine);
        }
    }

    @Test
    void aPinnedVersionIsUsedWithoutAsking() {
        try (DockerConnection connection = new DockerConnection(DockerProviderConfig.builder().apiVersion("1.40").build())) {
            assertThat(connection.apiVersion().getVersion()).isEqualTo("1.40");
            assertThat(connection.client().pingCmd().exec()).isNull();
        }
    }

    @Test
    void ignoresDockerHostAndDockerJavaPropertiesUnlessAskedTo(@TempDir Path home) throws Exception {
        Files.writeString(home.resolve(".docker-java.properties"),
                "DOCKER_HOST=tcp://127.0.0.1:2\napi.version=1.12\n");
        List<String> isolated = probe(home, false);
        assertThat(isolated).contains("host=unix://" + SOCKET, "apiVersion=" + capped(engineApiVersion()));
        assertThat(isolated).noneMatch(line -> line.startsWith("error="));

        // The same JVM setup with useEnvironment=true does pick the bogus host up: the probe can tell.
        List<String> ambient = probe(home, true);
        assertThat(ambient).anySatisfy(line -> assertThat(line).startsWith("error=").contains("127.0.0.1:1"));
    }

    private static List<String> probe(Path home, boolean useEnvironment) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder builder = new ProcessBuilder(java.toString(), "-Duser.home=" + home,
                "-cp", System.getProperty("java.class.path"),
                AmbientConfigProbe.class.getName(), Boolean.toString(useEnvironment));
        builder.environment().put("DOCKER_HOST", "tcp://127.0.0.1:1");
        builder.environment().put("DOCKER_API_VERSION", "1.12");
        builder.redirectErrorStream(true);
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new ArrayList<>(output.lines().toList());
    }

    private static String capped(String engineVersion) {
        return DockerConnection.NEWEST_SUPPORTED.isGreater(RemoteApiVersion.parseConfig(engineVersion))
                ? engineVersion : DockerConnection.NEWEST_SUPPORTED.getVersion();
    }

    /** The engine's API version, read from /version over the socket without docker-java. */
    private static String engineApiVersion() throws IOException {
        try (SocketChannel channel = SocketChannel.open(StandardProtocolFamily.UNIX)) {
            channel.connect(UnixDomainSocketAddress.of(SOCKET));
            channel.write(ByteBuffer.wrap("GET /version HTTP/1.0\r\nHost: docker\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
            ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
            while (channel.read(buffer) >= 0) {
                if (!buffer.hasRemaining()) {
                    break;
                }
            }
            String response = new String(buffer.array(), 0, buffer.position(), StandardCharsets.UTF_8);
            JsonNode json = new ObjectMapper().readTree(response.substring(response.indexOf("\r\n\r\n") + 4));
            return json.get("ApiVersion").asText();
        }
    }
}
