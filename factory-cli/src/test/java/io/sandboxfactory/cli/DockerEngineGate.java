package io.sandboxfactory.cli;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Whether the CLI's Docker tests can run: an engine on {@code /var/run/docker.sock} with the offline
 * test image. Without them the test is skipped with a message naming {@code scripts/docker-up.sh},
 * unless {@code CI=true}, where it fails.
 */
final class DockerEngineGate {

    static final String IMAGE = "sandbox-factory/test-base:latest";
    private static final Path SOCKET = Path.of("/var/run/docker.sock");

    private DockerEngineGate() {
    }

    static void require() {
        Optional<String> problem = problem();
        if (problem.isEmpty()) {
            return;
        }
        String message = problem.get() + " Run scripts/docker-up.sh to start Docker and build " + IMAGE + ".";
        if ("true".equalsIgnoreCase(System.getenv("CI"))) {
            throw new IllegalStateException("CI=true, so the Docker integration tests must run, but: " + message);
        }
        Assumptions.abort("Skipping Docker integration tests: " + message);
    }

    private static Optional<String> problem() {
        if (!Files.exists(SOCKET)) {
            return Optional.of("There is no Docker engine socket at " + SOCKET + ".");
        }
        try (SocketChannel channel = SocketChannel.open(UnixDomainSocketAddress.of(SOCKET))) {
            channel.write(ByteBuffer.wrap(("GET /images/" + IMAGE + "/json HTTP/1.0\r\nHost: docker\r\n\r\n").getBytes(StandardCharsets.US_ASCII)));
            ByteBuffer reply = ByteBuffer.allocate(64);
            while (reply.hasRemaining() && channel.read(reply) >= 0) {
                if (new String(reply.array(), 0, reply.position(), StandardCharsets.US_ASCII).contains("\r\n")) {
                    break;
                }
            }
            String status = new String(reply.array(), 0, reply.position(), StandardCharsets.US_ASCII).lines().findFirst().orElse("");
            if (status.contains(" 200 ")) {
                return Optional.empty();
            }
            return Optional.of(status.contains(" 404 ") ? "The test image " + IMAGE + " is missing on the engine."
                    : "The Docker engine answered '" + status + "'.");
        } catch (IOException e) {
            return Optional.of("The Docker engine at " + SOCKET + " does not answer: " + e.getMessage() + ".");
        }
    }
}
