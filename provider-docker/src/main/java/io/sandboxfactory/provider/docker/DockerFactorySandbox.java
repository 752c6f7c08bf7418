package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.DockerClient;
import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Container;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.api.support.TemplateStoreSandbox;
import io.sandboxfactory.provider.support.CommandDefaults;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.capability.SandboxInventory;
import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.api.capability.SandboxTemplate;
import io.sandboxfactory.api.capability.TemplateBuild;
import io.sandboxfactory.api.SandboxResources;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A configured docker provider: one engine connection, shared by every sandbox it makes, and the
 * {@link Tenant} (owner and state directory) its containers are named and labelled for. {@link
 * #create} does no I/O; the connection opens (and negotiates the API version) on the first start,
 * listing or removal.
 *
 * <p>As a {@link SandboxInventory} it lists and removes only containers labelled with this
 * provider and this tenant (or only this owner, when made before tenants), in any state. {@link #close()} closes the connection; sandboxes made by
 * this instance cannot be used afterwards, their containers are untouched.
 */
public final class DockerFactorySandbox implements TemplateStoreSandbox, SandboxInventory {

    private final DockerProviderConfig config;
    private final Tenant tenant;
    private final DockerConnection connection;
    /** This process, as the commands it starts record it (see {@link io.sandboxfactory.provider.support.DeadHostReaper}). */
    private final HostProcess host;
    private final DockerTemplates templates;

    DockerFactorySandbox(DockerProviderConfig config, Tenant tenant) {
        this(config, tenant, HostProcess.current());
    }

    /** With {@code host} standing for this process: a test plays a host that died. */
    DockerFactorySandbox(DockerProviderConfig config, Tenant tenant, HostProcess host) {
        this.config = config;
        this.tenant = tenant;
        this.connection = new DockerConnection(config);
        this.host = host;
        this.templates = new DockerTemplates(connection, tenant);
    }

    /** The owner this instance labels its containers with. */
    public String owner() {
        return tenant.owner();
    }

    /**
     * {@code docker/<runtime>}: the configured runtime, else the engine's default (asked once, so
     * the first call contacts the engine; {@code docker/unknown} when it cannot be reached).
     */
    @Override
    public String isolation() {
        if (config.configuredRuntime().isPresent()) {
            return "docker/" + config.configuredRuntime().get();
        }
        try {
            return "docker/" + connection.runtimes().defaultRuntime();
        } catch (RuntimeException e) {
            return "docker/unknown";
        }
    }

    /** The engine endpoint. */
    public URI dockerHost() {
        return connection.host();
    }

    /** The Engine API version in use, negotiated with the engine on first call unless pinned. */
    public String apiVersion() {
        return connection.apiVersion().getVersion();
    }

    /** The runtimes the engine knows, such as runc and runsc (asked once; contacts the engine). */
    public Set<String> engineRuntimes() {
        return connection.runtimes().names();
    }

    /** The docker-java client, for callers (and tests) that need the engine directly. */
    public DockerClient dockerClient() {
        return connection.client();
    }

    @Override
    public DockerSandbox create(FactorySandboxContext ctx) {
        String workingDirectory = ctx.workingDirectory().orElse(config.workingDirectory());
        DockerProviderConfig.checkWorkingDirectory(workingDirectory, "Working directory of session '" + ctx.sessionId() + "'");
        SandboxResources resources = ctx.resources();
        Optional<Double> cpus = resources.cpus().or(() -> Optional.ofNullable(config.cpus()));
        Optional<Long> memory = resources.memoryBytes().or(config::memoryBytes);
        memory.filter(bytes -> bytes < MemorySize.MINIMUM_BYTES).ifPresent(bytes -> {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Memory limit " + bytes + " of session '" + ctx.sessionId()
                    + "' is invalid; Docker needs at least " + MemorySize.MINIMUM_BYTES + " bytes (6m).");
        });
        ContainerSpec spec = new ContainerSpec(
                ContainerNames.forSession(tenant, ctx.sessionId()),
                ctx.template().map(t -> templates.image(t.name())).orElse(config.image()),
                SandboxLabels.forContainer(config.labels(), ctx.sessionId(), tenant),
                config.networkMode(),
                workingDirectory,
                cpus.map(c -> Math.round(c * 1_000_000_000d)),
                memory,
                config.init(),
                mounts(ctx),
                config.containerUser(),
                config.capAdd(),
                config.pidsLimit(),
                config.readOnlyRootFilesystem(),
                config.configuredRuntime());
        CommandDefaults defaults = new CommandDefaults(ctx.sessionId(), config.env(), workingDirectory, host);
        ChannelCommandRunner runner = new ChannelCommandRunner(connection, new DockerCommandRunner(connection, defaults),
                config.execChannel());
        return new DockerSandbox(ctx.sessionId(), ctx.sandboxId(), spec, tenant, connection, runner);
    }

    /** The configured volumes, then the context's host directories read-only at their own paths (when the engine shares this host). */
    private List<BindMount> mounts(FactorySandboxContext ctx) {
        List<BindMount> mounts = new ArrayList<>(config.bindMounts());
        if (engineOnThisHost()) {
            // A directory a configured volume already mounts at that path stays as configured (the engine refuses a duplicate).
            // Only directories that exist: the engine would make a missing bind source on the host, as root.
            ctx.hostDirectories().stream().filter(directory -> java.nio.file.Files.isDirectory(java.nio.file.Path.of(directory)))
                    .filter(directory -> mounts.stream().noneMatch(m -> m.containerPath().equals(directory)))
                    .forEach(directory -> mounts.add(new BindMount(directory, directory, true)));
        }
        return mounts;
    }

    /** An engine reached through a Unix socket runs on this machine, so a host path means the same to it. */
    private boolean engineOnThisHost() {
        return "unix".equals(connection.host().getScheme());
    }

    @Override
    public Set<SandboxCapability> capabilities() {
        Set<SandboxCapability> capabilities = EnumSet.of(SandboxCapability.FILES_SURVIVE_STOP,
                SandboxCapability.RECONNECT_ACROSS_PROCESSES, SandboxCapability.RESOURCE_LIMITS, SandboxCapability.INVENTORY,
                SandboxCapability.FILE_TRANSFER, SandboxCapability.TEMPLATES, SandboxCapability.ATTACH, SandboxCapability.STREAMS);
        if (config.networkIsolated()) {
            capabilities.add(SandboxCapability.NETWORK_ISOLATION);
        }
        if (engineOnThisHost()) {
            capabilities.add(SandboxCapability.HOST_DIRECTORIES);
        }
        return Collections.unmodifiableSet(capabilities);
    }

    /**
     * Stops the set-up container (its commands end; the files stay) and commits it as the template's
     * image; the core destroys the build session afterwards.
     */
    @Override
    public SandboxTemplate buildTemplate(TemplateBuild build) {
        if (!(build.source() instanceof DockerSandbox source) || source.sandboxId().isEmpty()) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Template source '" + build.source().id() + "' is not a started sandbox of the docker provider.");
        }
        if (config.readOnlyRootFilesystem()) {
            // The workspace is then a volume, and docker commit leaves volumes out: the image would lack it.
            throw new InvalidInputException(StandardErrorCode.INVALID_CONFIG, "providers.docker.readOnlyRootFilesystem 'true' is invalid"
                    + " for building template '" + build.template().name() + "'; a template image holds the workspace only when"
                    + " it lies in the container's own files: build templates with readOnlyRootFilesystem false.");
        }
        String containerId = source.sandboxId().get();
        source.stop();
        return templates.commit(build.template(), containerId);
    }

    @Override
    public TemplateStoreSandbox.Store templates() {
        return templates;
    }

    @Override
    public List<SandboxListing> listSandboxes() {
        List<Container> containers;
        try {
            containers = connection.client().listContainersCmd()
                    .withShowAll(true)
                    .withLabelFilter(SandboxLabels.ownerFilter(tenant))
                    .exec();
        } catch (RuntimeException e) {
            throw new SandboxException(StandardErrorCode.LIST_FAILED, "Could not list the containers of owner '" + tenant.owner() + "' on the Docker engine at "
                    + connection.host() + ": " + DockerFailures.message(e), e);
        }
        List<SandboxListing> listings = new ArrayList<>(containers.size());
        for (Container c : containers) {
            Map<String, String> labels = c.getLabels() == null ? Map.of() : c.getLabels();
            String sessionId = labels.get(SandboxLabels.SESSION);
            if (sessionId == null || !SandboxLabels.isOwnedBy(labels, tenant)) {
                continue;
            }
            listings.add(new SandboxListing(c.getId(), sessionId, state(c.getState()),
                    Optional.ofNullable(c.getCreated()).map(Instant::ofEpochSecond)));
        }
        return listings;
    }

    /** The engine's container state in the listing's terms; {@code restarting} is a container that keeps dying. */
    static SandboxListing.State state(String engineState) {
        return switch (String.valueOf(engineState)) {
            case "running" -> SandboxListing.State.UP;
            case "paused" -> SandboxListing.State.PAUSED;
            case "dead", "restarting" -> SandboxListing.State.BROKEN;
            default -> SandboxListing.State.STOPPED;
        };
    }

    @Override
    public void removeSandbox(SandboxListing sandbox) {
        DockerClient client = connection.client();
        InspectContainerResponse container;
        try {
            container = client.inspectContainerCmd(sandbox.sandboxId()).exec();
        } catch (RuntimeException e) {
            if (DockerFailures.isNotFound(e)) {
                return;
            }
            throw new SandboxException(StandardErrorCode.REMOVE_FAILED, "Could not look up container " + sandbox.sandboxId() + ": "
                    + DockerFailures.message(e), e);
        }
        Map<String, String> labels = container.getConfig() == null || container.getConfig().getLabels() == null
                ? Map.of() : container.getConfig().getLabels();
        if (!SandboxLabels.isOwnedBy(labels, tenant)) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Refusing to remove container " + sandbox.sandboxId()
                    + ": it is not a sandbox of the docker provider for owner '" + tenant.owner() + "' and this state directory.");
        }
        try {
            client.removeContainerCmd(container.getId()).withForce(true).withRemoveVolumes(true).exec();
        } catch (RuntimeException e) {
            if (!DockerFailures.isNotFound(e) && !DockerFailures.isConflict(e)) {
                throw new SandboxException(StandardErrorCode.REMOVE_FAILED, "Could not remove container " + sandbox.sandboxId() + ": "
                        + DockerFailures.message(e), e);
            }
        }
        DockerTemplates.removeUntaggedUnusedQuietly(client, tenant);
    }

    @Override
    public void close() {
        connection.close();
    }

    @Override
    public String toString() {
        return "DockerFactorySandbox[" + config + ", owner=" + tenant.owner() + ", tenant=" + tenant.key() + "]";
    }
}
