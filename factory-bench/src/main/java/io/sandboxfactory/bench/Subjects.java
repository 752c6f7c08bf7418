package io.sandboxfactory.bench;

import io.sandboxfactory.bench.docker.DockerSandboxes;
import io.sandboxfactory.bench.docker.TestcontainersPeer;
import io.sandboxfactory.bench.local.RawProcess;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;

import java.nio.file.Path;
import java.util.Optional;

/**
 * What the groups of one run measure against, set up once: the local factory and its open session,
 * the raw process in the same checkout, a session of a local factory with {@code isolation:
 * namespaces} when bubblewrap works (the other local one has {@code isolation: none}), and, where they are available, the Docker sandbox, the
 * {@code docker} CLI, the Testcontainers peer and the {@code factory} command with a session open
 * in its daemon.
 */
public record Subjects(
        BenchWorkspace workspace,
        SandboxFactory localFactory,
        SessionHandle localSession,
        Optional<SessionHandle> isolatedSession,
        RawProcess raw,
        Optional<DockerSandboxes> docker,
        boolean dockerCli,
        Optional<TestcontainersPeer> testcontainers,
        Optional<CliSession> cli) {

    /** A session opened with {@code factory open}, so its daemon serves the later {@code exec}s. */
    public record CliSession(FactoryCommand command, Path state, String session) {
    }

    /** The Docker sandbox when the docker CLI is there too ({@code docker exec}, {@code docker cp} need both). */
    public Optional<DockerSandboxes> dockerWithCli() {
        return dockerCli ? docker : Optional.empty();
    }
}
