package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.CreateContainerCmd;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Capability;
import com.github.dockerjava.api.model.Volume;
import com.github.dockerjava.api.exception.NotModifiedException;
import com.github.dockerjava.api.model.HostConfig;
import io.sandboxfactory.api.capability.AttachableSandbox;
import io.sandboxfactory.api.capability.StreamingSandbox;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.provider.support.RemoteSandbox;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The sandbox of one session as one Docker container; its handle is the container id.
 *
 * <p>Acquisition: {@link #find()} looks the container up by the physical id persisted from an
 * earlier start when there is one, else (or when that container is gone) by its name ({@link
 * ContainerNames}), and only accepts a container whose labels name this session, provider and
 * owner. {@link #connect} starts or unpauses it. {@link #create()} creates and starts it; when the
 * engine answers {@code 409 Conflict} another process created it first, and this instance connects
 * to that container instead, so concurrent starts anywhere end with one container per session.
 *
 * <p>The container runs a small {@code /bin/sh} loop that exits at once on {@code SIGTERM}, under
 * Docker's init unless configured off, with the configured network, CPU and memory limits, {@code
 * Tty=false}, its working directory created and the configured host directories mounted. It is
 * hardened: the configured user (non-root by default, {@code HOME=/tmp} then, since the image's
 * home may be root's), every capability dropped but the configured ones, {@code
 * no-new-privileges}, a pids limit, the configured runtime (checked against the engine's before
 * anything is created) and, when asked, a read-only root with the working directory as a volume and
 * {@code /tmp} as a tmpfs. The working directory is given to the user before the first start
 * ({@link WorkspaceOwner}). {@link
 * #stop()} stops it (files stay); {@link #destroy()} removes it with its anonymous volumes.
 * Commands run as described in {@link ChannelCommandRunner}; files move through the engine's
 * archive API ({@link DockerFileTransfer}). A command that finds the container removed or stopped
 * from outside fails with {@link SandboxDestroyedException} and leaves a running instance {@code
 * STOPPED}, so its next start (an {@code executeCommand}, or {@code start()}) reconnects to a
 * stopped container or creates a fresh one.
 */
public final class DockerSandbox extends RemoteSandbox<String> implements AttachableSandbox, StreamingSandbox {

    /** Keeps the container alive doing nothing; {@code docker stop} ends it at once. */
    static final String KEEP_ALIVE = "trap 'exit 0' TERM INT; while :; do sleep 3600 & wait $!; done";

    /** Seconds {@code docker stop} waits before killing; the keep-alive loop exits on SIGTERM. */
    static final int STOP_GRACE_SECONDS = 3;

    /** How long a create that lost the name race looks for the winner's container. */
    private static final Duration NAME_RACE_WAIT = Duration.ofSeconds(10);

    private final DockerConnection connection;
    private final ContainerSpec spec;
    private final Optional<String> knownContainerId;
    private final Tenant tenant;
    private final ChannelCommandRunner runner;
    private final DockerFileTransfer files;

    DockerSandbox(String sessionId, Optional<String> knownContainerId, ContainerSpec spec, Tenant tenant,
                  DockerConnection connection, ChannelCommandRunner runner) {
        this(sessionId, knownContainerId, spec, tenant, connection, runner, new DockerFileTransfer(connection, sessionId, spec.user()));
    }

    private DockerSandbox(String sessionId, Optional<String> knownContainerId, ContainerSpec spec, Tenant tenant,
                          DockerConnection connection, ChannelCommandRunner runner, DockerFileTransfer files) {
        super(sessionId, spec.name(), spec.workingDirectory(), runner, files);
        this.connection = connection;
        this.spec = spec;
        this.knownContainerId = Objects.requireNonNull(knownContainerId, "knownContainerId");
        this.tenant = tenant;
        this.runner = runner;
        this.files = files;
    }

    /** The container name this session maps to. */
    public String containerName() {
        return spec.name();
    }

    /** {@code docker exec} into the container, as {@link DockerShell} describes, with the provider's variables and then the session's own. */
    @Override
    public Attach attach(Request request) {
        Map<String, String> variables = new LinkedHashMap<>(runner.baseEnv());
        variables.putAll(getEnv());
        return DockerShell.attach(runningHandle(), request, variables, connection.clientHost());
    }

    /**
     * An exec of {@code argv} in the container, attached to its stdin and stdout ({@link
     * ContainerStreams}); also while a start hook runs (the factory opens its channels from one); never starts the
     * sandbox.
     */
    @Override
    public SandboxStream openStream(List<String> argv) {
        return ContainerStreams.open(connection.client(), acquiredHandle(), argv, id());
    }

    @Override
    protected Optional<String> find() {
        DockerClient client = connection.client();
        if (knownContainerId.isPresent()) {
            Optional<InspectContainerResponse> known = inspect(client, knownContainerId.get());
            if (known.isPresent() && isThisSession(known.get())) {
                return Optional.of(known.get().getId());
            }
        }
        Optional<InspectContainerResponse> named = inspect(client, spec.name());
        named.ifPresent(this::requireThisSession);
        return named.map(InspectContainerResponse::getId);
    }

    @Override
    protected void connect(String containerId) {
        DockerClient client = connection.client();
        InspectContainerResponse container = client.inspectContainerCmd(containerId).exec();
        InspectContainerResponse.ContainerState state = container.getState();
        if (state != null && Boolean.TRUE.equals(state.getPaused())) {
            client.unpauseContainerCmd(containerId).exec();
        } else if (state == null || !Boolean.TRUE.equals(state.getRunning())) {
            startContainer(client, containerId);
            return;
        }
        // Running: a host that died while it ran commands here may have left them running.
        reapDeadHosts(containerId);
    }

    @Override
    protected String create() throws InterruptedException {
        DockerClient client = connection.client();
        connection.runtimes().require(spec.runtime(), connection.host());
        long deadline = System.nanoTime() + NAME_RACE_WAIT.toNanos();
        String containerId;
        for (int attempt = 0; ; attempt++) {
            try {
                containerId = createContainer(client);
                break;
            } catch (RuntimeException e) {
                if (!DockerFailures.isConflict(e)) {
                    throw createFailure(e);
                }
                // The name is taken: another instance or process created this session's container first.
                // The engine reserves the name before the container can be looked up, so look a few times.
                Optional<String> existing = find();
                if (existing.isPresent()) {
                    connect(existing.get());
                    return existing.get();
                }
                if (System.nanoTime() > deadline) {
                    throw createFailure(e);
                }
                Thread.sleep(Math.min(10L << Math.min(attempt, 5), 200L));
            }
        }
        try {
            WorkspaceOwner.apply(client, files, containerId, spec);
        } catch (IOException | RuntimeException e) {
            removeQuietly(client, containerId);
            throw new SandboxException(StandardErrorCode.CREATE_FAILED, "Sandbox '" + id() + "' created container '" + spec.name()
                    + "' but could not give its working directory " + spec.workingDirectory() + " to user " + spec.user() + ": "
                    + (e instanceof RuntimeException r ? DockerFailures.message(r) : e.getMessage()), e);
        }
        try {
            startContainer(client, containerId);
        } catch (RuntimeException e) {
            // A container that cannot start would be found and fail again on every later start: drop it.
            removeQuietly(client, containerId);
            throw new SandboxException(StandardErrorCode.START_FAILED, "Sandbox '" + id() + "' created container '" + spec.name()
                    + "' but it did not start: " + DockerFailures.message(e), e);
        }
        return containerId;
    }

    private SandboxException createFailure(RuntimeException e) {
        // 404 also answers a missing network; only "No such image" means the image.
        if (DockerFailures.isNotFound(e) && DockerFailures.message(e).toLowerCase(Locale.ROOT).contains("no such image")) {
            return new SandboxException(DockerErrorCode.IMAGE_MISSING, "Docker image '" + spec.image() + "' is not on the engine at "
                    + connection.host() + "; the docker provider never pulls: pull or build it first"
                    + (DockerProviderConfig.DEFAULT_IMAGE.equals(spec.image()) ? " (scripts/docker-up.sh builds it)." : "."), e);
        }
        return new SandboxException(StandardErrorCode.CREATE_FAILED, "Sandbox '" + id() + "' could not create container '" + spec.name()
                + "': " + DockerFailures.message(e), e);
    }

    private String createContainer(DockerClient client) {
        HostConfig hostConfig = HostConfig.newHostConfig()
                .withNetworkMode(spec.networkMode())
                .withInit(spec.init())
                .withCapDrop(Capability.ALL)
                .withSecurityOpts(List.of("no-new-privileges:true"))
                .withPidsLimit(spec.pidsLimit());
        if (!spec.capAdd().isEmpty()) {
            hostConfig.withCapAdd(spec.capAdd().stream().map(Capability::valueOf).toArray(Capability[]::new));
        }
        spec.runtime().ifPresent(hostConfig::withRuntime);
        spec.nanoCpus().ifPresent(hostConfig::withNanoCPUs);
        spec.memoryBytes().ifPresent(hostConfig::withMemory);
        if (!spec.mounts().isEmpty()) {
            hostConfig.withBinds(spec.mounts().stream().map(BindMount::toBind).toList());
        }
        CreateContainerCmd create = client.createContainerCmd(spec.image());
        if (spec.readOnlyRootFilesystem()) {
            // The working directory as an anonymous volume (removed with the container), /tmp in memory.
            hostConfig.withReadonlyRootfs(true).withTmpFs(Map.of("/tmp", "rw,nosuid,nodev,mode=1777"));
            create.withVolumes(new Volume(spec.workingDirectory()));
        }
        if (!spec.user().isRoot()) {
            create.withEnv("HOME=/tmp");
        }
        return create
                .withUser(spec.user().toString())
                .withName(spec.name())
                .withLabels(spec.labels())
                .withWorkingDir(spec.workingDirectory())
                .withEntrypoint("/bin/sh", "-c", KEEP_ALIVE)
                .withCmd(List.of())
                .withTty(false)
                .withStdinOpen(false)
                .withAttachStdin(false)
                .withAttachStdout(false)
                .withAttachStderr(false)
                .withHostConfig(hostConfig)
                .exec()
                .getId();
    }

    private static void startContainer(DockerClient client, String containerId) {
        try {
            client.startContainerCmd(containerId).exec();
        } catch (NotModifiedException alreadyRunning) {
            // Another instance started it between our look and our start.
        }
    }

    @Override
    protected void doStop(String containerId) {
        runner.closeChannel();
        try {
            connection.client().stopContainerCmd(containerId).withTimeout(STOP_GRACE_SECONDS).exec();
        } catch (NotModifiedException alreadyStopped) {
            // Idempotent: nothing to stop.
        } catch (RuntimeException e) {
            if (!DockerFailures.isNotFound(e)) {
                throw new SandboxException(StandardErrorCode.STOP_FAILED, "Sandbox '" + id() + "' could not stop container '" + spec.name()
                        + "': " + DockerFailures.message(e), e);
            }
        }
    }

    @Override
    protected void doDestroy(String containerId) {
        runner.closeChannel();
        try {
            connection.client().removeContainerCmd(containerId).withForce(true).withRemoveVolumes(true).exec();
        } catch (RuntimeException e) {
            // Gone already, or another caller's removal is in progress: either way it is going away.
            if (!DockerFailures.isNotFound(e) && !DockerFailures.isConflict(e)) {
                throw new SandboxException(StandardErrorCode.DESTROY_FAILED, "Sandbox '" + id() + "' could not remove container '"
                        + spec.name() + "': " + DockerFailures.message(e), e);
            }
        }
        DockerTemplates.removeUntaggedUnusedQuietly(connection.client(), tenant);
    }

    private Optional<InspectContainerResponse> inspect(DockerClient client, String idOrName) {
        try {
            return Optional.of(client.inspectContainerCmd(idOrName).exec());
        } catch (RuntimeException e) {
            if (DockerFailures.isNotFound(e)) {
                return Optional.empty();
            }
            throw e;
        }
    }

    private boolean isThisSession(InspectContainerResponse container) {
        Map<String, String> labels = labels(container);
        return id().equals(labels.get(SandboxLabels.SESSION)) && SandboxLabels.isOwnedBy(labels, tenant);
    }

    private void requireThisSession(InspectContainerResponse container) {
        if (!isThisSession(container)) {
            Map<String, String> labels = labels(container);
            throw new SandboxException(DockerErrorCode.CONTAINER_NAME_TAKEN, "Container '" + spec.name() + "' exists but is not the"
                    + " sandbox of session '" + id() + "' for owner '" + tenant.owner() + "' (its labels say session '"
                    + labels.get(SandboxLabels.SESSION) + "', provider '" + labels.get(SandboxLabels.PROVIDER)
                    + "', owner '" + labels.get(SandboxLabels.OWNER) + "'); remove it or use another session id.");
        }
    }

    private static Map<String, String> labels(InspectContainerResponse container) {
        Map<String, String> labels = container.getConfig() == null ? null : container.getConfig().getLabels();
        return labels == null ? Map.of() : labels;
    }

    private static void removeQuietly(DockerClient client, String containerId) {
        try {
            client.removeContainerCmd(containerId).withForce(true).withRemoveVolumes(true).exec();
        } catch (RuntimeException ignored) {
            // Best effort; the start failure is what the caller needs to see.
        }
    }
}
