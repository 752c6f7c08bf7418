package io.sandboxfactory.bench.docker;

import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.bench.BenchWorkspace;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.provider.docker.DockerFactorySandbox;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * One Docker sandbox reached two ways: through a factory whose provider carries commands on its
 * long-lived exec channel, and through one that makes an exec per command ({@code
 * execChannel: false}); both connect to the same container (one state directory, so one tenant).
 * Beside it, when the engine knows the {@code runsc} runtime, a sandbox under gVisor reached
 * through the channel. Opened only when an engine answers.
 */
public final class DockerSandboxes implements AutoCloseable {

    static final String RUNSC = "runsc";

    private final SandboxFactory channelFactory;
    private final SandboxFactory perExecFactory;
    private final MastraSandbox<?> channel;
    private final MastraSandbox<?> perExec;
    private final Optional<SandboxFactory> gvisorFactory;
    private final Optional<MastraSandbox<?>> gvisor;

    private DockerSandboxes(SandboxFactory channelFactory, SandboxFactory perExecFactory, MastraSandbox<?> channel, MastraSandbox<?> perExec,
                            Optional<SandboxFactory> gvisorFactory, Optional<MastraSandbox<?>> gvisor) {
        this.channelFactory = channelFactory;
        this.perExecFactory = perExecFactory;
        this.channel = channel;
        this.perExec = perExec;
        this.gvisorFactory = gvisorFactory;
        this.gvisor = gvisor;
    }

    /** Starts the sandbox; throws (with the engine's reason) when no engine answers or the image is missing. */
    public static DockerSandboxes start(BenchWorkspace workspace, String image) throws IOException {
        Path state = workspace.directory("docker");
        SandboxFactory channelFactory = factory(state, workspace, image, Map.of("execChannel", true));
        SandboxFactory perExecFactory = null;
        SandboxFactory gvisorFactory = null;
        try {
            perExecFactory = factory(state, workspace, image, Map.of("execChannel", false));
            String session = "bench-" + UUID.randomUUID().toString().substring(0, 8);
            MastraSandbox<?> channel = channelFactory.sandbox(FactorySandboxContext.of(session));
            channel.start();
            MastraSandbox<?> perExec = perExecFactory.sandbox(FactorySandboxContext.of(session));
            perExec.start();
            Optional<MastraSandbox<?>> gvisor = Optional.empty();
            if (((DockerFactorySandbox) channelFactory.factorySandbox()).engineRuntimes().contains(RUNSC)) {
                gvisorFactory = factory(state, workspace, image, Map.of("execChannel", true, "runtime", RUNSC));
                MastraSandbox<?> sandbox = gvisorFactory.sandbox(FactorySandboxContext.of(session + "-" + RUNSC));
                sandbox.start();
                gvisor = Optional.of(sandbox);
            }
            return new DockerSandboxes(channelFactory, perExecFactory, channel, perExec, Optional.ofNullable(gvisorFactory), gvisor);
        } catch (RuntimeException e) {
            if (gvisorFactory != null) {
                gvisorFactory.close();
            }
            if (perExecFactory != null) {
                perExecFactory.close();
            }
            channelFactory.close();
            throw e;
        }
    }

    /** Factories on one state directory ({@code state}) are one tenant: they name the session's container alike. */
    private static SandboxFactory factory(Path state, BenchWorkspace workspace, String image, Map<String, Object> section) {
        Map<String, Object> docker = new java.util.LinkedHashMap<>(section);
        docker.put("image", image);
        return SandboxFactory.builder()
                .config(FactoryConfig.builder().provider("docker").providerSection("docker", docker).build())
                .stateDirectory(state)
                .environment(workspace.processes().environment())
                .build();
    }

    public MastraSandbox<?> channel() {
        return channel;
    }

    public MastraSandbox<?> perExec() {
        return perExec;
    }

    /** The sandbox under gVisor ({@code runtime: runsc}), when the engine knows that runtime. */
    public Optional<MastraSandbox<?>> gvisor() {
        return gvisor;
    }

    /** The factory of {@link #channel()} (runc) and that of {@link #gvisor()}, for sandboxes of their own. */
    public SandboxFactory runcFactory() {
        return channelFactory;
    }

    public Optional<SandboxFactory> gvisorFactory() {
        return gvisorFactory;
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
            gvisor.ifPresent(MastraSandbox::destroy);
        } finally {
            gvisorFactory.ifPresent(SandboxFactory::close);
            perExecFactory.close();
            channelFactory.close();
        }
    }
}
