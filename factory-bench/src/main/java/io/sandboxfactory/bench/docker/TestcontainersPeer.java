package io.sandboxfactory.bench.docker;

import org.testcontainers.containers.Container;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

import java.nio.file.Path;

/**
 * The peer a Java user would pick instead: Testcontainers' {@code GenericContainer} on the same
 * image, network mode none, commands through {@code execInContainer} and files through {@code
 * copyFileToContainer}/{@code copyFileFromContainer}. Needs {@code TESTCONTAINERS_RYUK_DISABLED=true}
 * where Docker Hub (its Ryuk image) is out of reach.
 */
public final class TestcontainersPeer implements AutoCloseable {

    private final GenericContainer<?> container;

    private TestcontainersPeer(GenericContainer<?> container) {
        this.container = container;
    }

    /**
     * Starts the container. {@code apiVersion} is the engine's: Testcontainers otherwise asks for
     * 1.44, which engines before Docker 25 refuse; docker-java takes it from the system property.
     */
    @SuppressWarnings("resource") // closed by close()
    public static TestcontainersPeer start(String image, String apiVersion) {
        System.setProperty("api.version", apiVersion);
        GenericContainer<?> container = new GenericContainer<>(DockerImageName.parse(image))
                .withNetworkMode("none")
                .withCommand("sleep", "2147483647");
        container.start();
        return new TestcontainersPeer(container);
    }

    /** Runs {@code sh -c command}; fails on a non-zero exit. */
    public void exec(String command) throws Exception {
        Container.ExecResult result = container.execInContainer("sh", "-c", command);
        if (result.getExitCode() != 0) {
            throw new IllegalStateException("execInContainer of '" + command + "' exited " + result.getExitCode() + ": " + result.getStderr());
        }
    }

    public void copyIn(Path host, String containerPath) {
        container.copyFileToContainer(MountableFile.forHostPath(host), containerPath);
    }

    public void copyOut(String containerPath, Path host) {
        container.copyFileFromContainer(containerPath, host.toString());
    }

    @Override
    public void close() {
        container.stop();
    }
}
