package io.sandboxfactory.cli;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The config of the CLI's docker tests: the docker provider, no network, the test's repositories mounted read-only. */
final class DockerTestConfig {

    private DockerTestConfig() {
    }

    /** Writes {@code factory.yaml} under {@code temp} for sandboxes of {@code owner}; returns it. */
    static Path write(Path temp, String owner, Path repos) throws IOException {
        return Files.writeString(temp.resolve("factory.yaml"), """
                provider: docker
                owner: %s
                providers:
                  docker:
                    networkMode: none
                    volumes:
                      - "%s:%s:ro"
                """.formatted(owner, repos, repos));
    }
}
