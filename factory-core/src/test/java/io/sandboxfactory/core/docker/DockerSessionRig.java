package io.sandboxfactory.core.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.exception.ConflictException;
import com.github.dockerjava.api.exception.NotFoundException;
import com.github.dockerjava.api.model.Container;
import com.github.dockerjava.api.model.Image;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.SandboxFactoryBuilder;
import io.sandboxfactory.core.config.CacheConfig;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.config.GitConfig;
import io.sandboxfactory.core.config.RepositoryDefaults;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.session.SessionSpecBuilder;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.api.testing.TestProviderContext;
import io.sandboxfactory.provider.docker.DockerFactorySandbox;
import io.sandboxfactory.provider.docker.DockerProviderConfig;
import io.sandboxfactory.provider.docker.DockerSandboxProvider;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * What a session-on-docker test needs, one per test: a bare repository on the host, a state
 * directory, {@link SandboxFactory factories} on the {@code docker} provider whose containers carry
 * a unique owner and a per-run label and have no network, the repository's directory bind-mounted
 * read-only at the same path (so the host path is also the clone URL inside the container), an
 * admin client for looking at the engine from outside, and cleanup that removes every container
 * of the run and closes every factory.
 */
final class DockerSessionRig implements AutoCloseable {

    /** Label every container of a test run carries, for cleanup and counting. */
    static final String RUN_LABEL = "sandbox-factory.test-run";
    /** The setup command appends a line here inside the container, so its runs can be counted. */
    static final String SETUP_COUNT_FILE = "/workspace/setup-count";
    static final String SETUP_COMMAND = "echo ran >> " + SETUP_COUNT_FILE;
    static final String BRANCH = "b";

    static final String SESSION_LABEL = "io.sandboxfactory.session";
    static final String PROVIDER_LABEL = "io.sandboxfactory.provider";
    static final String OWNER_LABEL = "io.sandboxfactory.owner";

    private final String runId = UUID.randomUUID().toString();
    private final String owner = "it-core-" + runId;
    private final Path remote;
    private final Path state;
    private final DockerFactorySandbox admin;
    private final List<AutoCloseable> closeables = new ArrayList<>();

    DockerSessionRig(Path tmp) throws IOException {
        this.remote = Git.bareRepository(tmp.resolve("remote/app.git"));
        this.state = tmp.resolve("state");
        this.admin = new DockerSandboxProvider().open(DockerProviderConfig.defaults(), new TestProviderContext(tmp, "admin"));
    }

    String owner() {
        return owner;
    }

    String runId() {
        return runId;
    }

    /** The bare repository on the host; its path is also its path inside every container. */
    Path remote() {
        return remote;
    }

    Path state() {
        return state;
    }

    /** A session id unique to this run (container names are global on the engine). */
    String sessionId(String hint) {
        return hint + "-" + runId;
    }

    /** The {@code providers.docker} section: no network, the run label, the repository mounted read-only. */
    Map<String, Object> dockerSection() {
        String mounted = remote.getParent().toString();
        return Map.of("networkMode", "none",
                "labels", Map.of(RUN_LABEL, runId),
                "volumes", List.of(mounted + ":" + mounted + ":ro"));
    }

    /** The same config as a YAML file, the way a user writes it. */
    Path writeConfigFile(Path file) throws IOException {
        String mounted = remote.getParent().toString();
        Files.writeString(file, """
                provider: docker
                owner: %s
                providers:
                  docker:
                    networkMode: none
                    labels:
                      %s: "%s"
                    volumes:
                      - "%s:%s:ro"
                """.formatted(owner, RUN_LABEL, runId, mounted, mounted));
        return file;
    }

    SandboxFactory factory() {
        return factory(SessionListener.NONE);
    }

    /** A new factory on the shared state directory, as a new process would build it. */
    SandboxFactory factory(SessionListener listener) {
        return factory(listener, dockerSection());
    }

    /** A new factory on the shared state directory whose {@code providers.docker} section is {@code section}. */
    SandboxFactory factory(SessionListener listener, Map<String, Object> section) {
        return factory(FactoryConfig.builder().provider("docker").owner(owner).providerSection("docker", section).build(),
                SandboxFactory.builder().sessionListener(listener));
    }

    /** A new factory on the shared state directory with {@code repository} as its {@code repository:} section. */
    SandboxFactory factory(SessionListener listener, RepositoryDefaults repository) {
        return factory(FactoryConfig.builder().provider("docker").owner(owner).repository(repository)
                .providerSection("docker", dockerSection()).build(), SandboxFactory.builder().sessionListener(listener));
    }

    /** A new factory on the shared state directory whose {@code git:} section is {@code git}. */
    SandboxFactory factory(GitConfig git) {
        return factory(gitConfig(git), SandboxFactory.builder());
    }

    /** The builder {@link #factory(GitConfig)} builds with, for asking it what it would run with. */
    SandboxFactoryBuilder builder(GitConfig git) {
        return SandboxFactory.builder().config(gitConfig(git)).environment(Map.of()).stateDirectory(state);
    }

    private FactoryConfig gitConfig(GitConfig git) {
        return FactoryConfig.builder().provider("docker").owner(owner).providerSection("docker", dockerSection()).git(git).build();
    }

    /**
     * A new factory on the shared state directory with the host git object cache on, containers on
     * the host's network (so they reach a loopback git server) and {@code token} for the repository,
     * given to the sandbox ({@code repository.exposeToken}: the clones go to the server directly, as
     * the cache's tests count them).
     */
    SandboxFactory cachedFactory(SessionListener listener, String token) {
        FactoryConfig config = FactoryConfig.builder().provider("docker").owner(owner)
                .repository(new RepositoryDefaults(null, Optional.empty(), List.of(), List.of(), List.of(), List.of(), List.of(), true, Optional.empty()))
                .providerSection("docker", Map.of("networkMode", "host", "labels", Map.of(RUN_LABEL, runId)))
                .cache(new CacheConfig(true, null)).build();
        return factory(config, SandboxFactory.builder().sessionListener(listener).repositoryToken(() -> token));
    }

    /**
     * A new factory on the shared state directory: containers without network in {@code runtime}
     * (empty: the engine's default), {@code token} for the repository.
     */
    SandboxFactory tokenFactory(String token, Optional<String> runtime) {
        Map<String, Object> section = new java.util.HashMap<>(Map.of("networkMode", "none", "labels", Map.of(RUN_LABEL, runId)));
        runtime.ifPresent(name -> section.put("runtime", name));
        FactoryConfig config = FactoryConfig.builder().provider("docker").owner(owner).providerSection("docker", section).build();
        return factory(config, SandboxFactory.builder().repositoryToken(() -> token));
    }

    /** A new factory on the shared state directory: containers with {@code networkMode}, egress {@code egress}. */
    SandboxFactory egressFactory(String networkMode, io.sandboxfactory.core.config.EgressConfig egress) {
        return egressFactory(networkMode, Map.of(), egress);
    }

    /**
     * As {@link #egressFactory(String, io.sandboxfactory.core.config.EgressConfig)}, with more keys of
     * {@code providers.docker} ({@code runtime}, {@code image}).
     */
    SandboxFactory egressFactory(String networkMode, Map<String, Object> docker, io.sandboxfactory.core.config.EgressConfig egress) {
        Map<String, Object> section = new java.util.HashMap<>(Map.of("networkMode", networkMode, "labels", Map.of(RUN_LABEL, runId)));
        section.putAll(docker);
        FactoryConfig config = FactoryConfig.builder().provider("docker").owner(owner).providerSection("docker", section).egress(egress).build();
        return factory(config, SandboxFactory.builder());
    }

    private SandboxFactory factory(FactoryConfig config, SandboxFactoryBuilder builder) {
        SandboxFactory factory = builder.config(config).environment(Map.of()).stateDirectory(state).build();
        synchronized (closeables) {
            closeables.add(factory);
        }
        return factory;
    }

    /**
     * The docker provider opened directly (no factory, no store) for {@code owner}, with the rig's
     * run label and no network; closed with the rig.
     */
    DockerFactorySandbox provider(String owner) {
        DockerFactorySandbox provider = new DockerSandboxProvider().open(DockerProviderConfig.builder().networkMode("none")
                .labels(Map.of(RUN_LABEL, runId)).build(), new TestProviderContext(state, owner));
        synchronized (closeables) {
            closeables.add(provider);
        }
        return provider;
    }

    /** A session on the rig's repository, branch {@value #BRANCH}, with the counting setup command. */
    SessionSpecBuilder spec(String sessionId) {
        return SessionSpec.builder(sessionId).repository(remote.toString()).branch(BRANCH).setupCommands(SETUP_COMMAND);
    }

    /** How many times the setup command ran in {@code sandbox}'s container. */
    static int setupRuns(MastraSandbox<?> sandbox) {
        CommandResult result = sandbox.executeCommand("cat " + SETUP_COUNT_FILE + " 2>/dev/null || true");
        return (int) result.stdout().lines().filter("ran"::equals).count();
    }

    /**
     * An image of this run: the test image without the file {@code path} (a tool a test needs absent),
     * removed with the run's other images. The container that made it carries the owner's label, so
     * the committed image does too.
     */
    String imageWithout(String path) throws InterruptedException {
        String container = engine().createContainerCmd(DockerProviderConfig.DEFAULT_IMAGE).withCmd("rm", "-f", path)
                .withLabels(Map.of(RUN_LABEL, runId, OWNER_LABEL, owner)).withNetworkDisabled(true).exec().getId();
        engine().startContainerCmd(container).exec();
        int status = engine().waitContainerCmd(container).start().awaitStatusCode(1, java.util.concurrent.TimeUnit.MINUTES);
        if (status != 0) {
            throw new IllegalStateException("rm -f " + path + " in " + DockerProviderConfig.DEFAULT_IMAGE + " exited " + status);
        }
        String repository = "sandbox-factory-test-without";
        engine().commitCmd(container).withRepository(repository).withTag(runId).exec();
        return repository + ":" + runId;
    }

    /** The engine, seen from outside the provider. */
    /** The image of template {@code name}: its repository carries this factory's tenant key, so it is found by its tag. */
    String templateImage(String name) {
        return engine().listImagesCmd().exec().stream()
                .flatMap(image -> image.getRepoTags() == null ? java.util.stream.Stream.<String>empty() : java.util.Arrays.stream(image.getRepoTags()))
                .filter(tag -> tag.startsWith("sandbox-factory-template") && tag.endsWith(":" + name)).findFirst()
                .orElseThrow(() -> new AssertionError("No image is tagged as template " + name));
    }

    DockerClient engine() {
        return admin.dockerClient();
    }

    /** Containers of this run labelled with session {@code sessionId}, in any state. */
    List<Container> containersOfSession(String sessionId) {
        return engine().listContainersCmd().withShowAll(true)
                .withLabelFilter(Map.of(RUN_LABEL, runId, SESSION_LABEL, sessionId))
                .exec();
    }

    /** The container {@code idOrName} as the engine reports it, if it exists. */
    Optional<InspectContainerResponse> inspect(String idOrName) {
        try {
            return Optional.of(engine().inspectContainerCmd(idOrName).exec());
        } catch (NotFoundException e) {
            return Optional.empty();
        }
    }

    /**
     * Removes every container of this run, then every image its owner made (templates, tagged or
     * left untagged by a removal while a container used them), and closes the factories and providers.
     */
    @Override
    public void close() {
        try {
            for (Container c : engine().listContainersCmd().withShowAll(true).withLabelFilter(Map.of(RUN_LABEL, runId)).exec()) {
                try {
                    engine().removeContainerCmd(c.getId()).withForce(true).withRemoveVolumes(true).exec();
                } catch (NotFoundException | ConflictException gone) {
                    // Removed meanwhile, or a removal is already under way.
                }
            }
            for (Image image : engine().listImagesCmd().withLabelFilter(Map.of(OWNER_LABEL, owner)).exec()) {
                try {
                    engine().removeImageCmd(image.getId()).withForce(true).exec();
                } catch (NotFoundException gone) {
                    // Removed meanwhile.
                }
            }
        } finally {
            synchronized (closeables) {
                for (AutoCloseable closeable : closeables) {
                    try {
                        closeable.close();
                    } catch (Exception e) {
                        throw new IllegalStateException("Could not close " + closeable, e);
                    }
                }
            }
            admin.close();
        }
    }
}
