package io.sandboxfactory.bench.docker;

import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.bench.report.Group;
import io.sandboxfactory.bench.stats.Contender;
import io.sandboxfactory.bench.stats.Interleaved;
import io.sandboxfactory.core.SandboxFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * Starting a fresh Docker sandbox (create, own the working directory, start, first command) and
 * removing it, under the engine's default runtime and under gVisor ({@code runsc}) when the engine
 * has it: what a new session's container costs with each.
 */
public final class DockerStarts {

    public static final String RUNC = "docker sandbox start + echo + destroy, runc";

    private final DockerSandboxes docker;

    public DockerStarts(DockerSandboxes docker) {
        this.docker = docker;
    }

    public Group measure(Interleaved rounds) throws Exception {
        List<Contender> contenders = new ArrayList<>();
        contenders.add(Contender.of(RUNC, () -> startAndDestroy(docker.runcFactory())));
        docker.gvisorFactory().ifPresent(gvisor -> contenders.add(Contender.of("docker sandbox start + echo + destroy, runsc",
                () -> startAndDestroy(gvisor))));
        return new Group("docker start", RUNC, rounds.run(contenders));
    }

    private static void startAndDestroy(SandboxFactory factory) {
        MastraSandbox<?> sandbox = factory.sandbox(FactorySandboxContext.of("bench-start-" + UUID.randomUUID().toString().substring(0, 8)));
        try {
            sandbox.start();
            if (sandbox.executeCommand("echo started").exitCode() != 0) {
                throw new IllegalStateException("A fresh docker sandbox could not run echo.");
            }
        } finally {
            sandbox.destroy();
        }
    }
}
