package io.sandboxfactory.bench.docker;

import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.bench.BenchWorkspace;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.provider.docker.DockerFactorySandbox;

import java.io.IOException;
import java.util.Map;
import java.util.UUID;

/**
 * One Docker sandbox reached two ways: through a factory whose provider carries commands on its
 * long-lived exec channel, and through one that makes an exec per command ({@code
 * execChannel: false}); both connect to the same container. Opened only when an engine answers.
 */
public final class DockerSandboxes implements AutoCloseable {

    private final SandboxFactory channelFactory;
    private final SandboxFactory perExecFactory;
    private final MastraSandbox<?> channel;
    private final MastraSandbox<?> perExec;

    private DockerSandboxes(SandboxFactory channelFactory, SandboxFactory perExecFactory, MastraSandbox<?> channel, MastraSandbox<?> perExec) {
        this.channelFactory = channelFactory;
        this.perExecFactory = perExecFactory;
        this.channel = channel;
        this.perExec = perExec;
    }

    /** Starts the sandbox; throws (with the engine's reason) when no engine answers or the image is missing. */
    public static DockerSandboxes start(BenchWorkspace workspace, String image) throws IOException {
        SandboxFactory channelFactory = factory(workspace, "docker-channel", image, true);
        SandboxFactory perExecFactory = null;
        try {
            perExecFactory = factory(workspace, "docker-per-exec", image, false);
            String session = "bench-" + UUID.randomUUID().toString().substring(0, 8);
            MastraSandbox<?> channel = channelFactory.sandbox(FactorySandboxContext.of(session));
            channel.start();
            MastraSandbox<?> perExec = perExecFactory.sandbox(FactorySandboxContext.of(session));
            perExec.start();
            return new DockerSandboxes(channelFactory, perExecFactory, channel, perExec);
        } catch (RuntimeException | IOException e) {
            if (perExecFactory != null) {
                perExecFactory.close();
            }
            channelFactory.close();
            throw e;
        }
    }

    private static SandboxFactory factory(BenchWorkspace workspace, String name, String image, boolean execChannel) throws IOException {
        return SandboxFactory.builder()
                .config(FactoryConfig.builder().provider("docker").providerSection("docker", Map.of("execChannel", execChannel, "image", image)).build())
                .stateDirectory(workspace.directory(name))
                .environment(workspace.processes().environment())
                .build();
    }

    public MastraSandbox<?> channel() {
        return channel;
    }

    public MastraSandbox<?> perExec() {
        return perExec;
    }

    /** The Engine API version the provider negotiated with the engine, such as {@code 1.41}. */
    public String apiVersion() {
        return ((DockerFactorySandbox) channelFactory.factorySandbox()).apiVersion();
    }

    /** The engine's id of the container, for {@code docker exec} and {@code docker cp}. */
    public String containerId() {
        return channel.sandboxId().orElseThrow(() -> new IllegalStateException("The docker sandbox started without a container id."));
    }

    @Override
    public void close() {
        try {
            channel.destroy();
        } finally {
            perExecFactory.close();
            channelFactory.close();
        }
    }
}
