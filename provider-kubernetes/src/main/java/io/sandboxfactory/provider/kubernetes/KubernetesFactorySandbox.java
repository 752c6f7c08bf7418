package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.capability.SandboxInventory;
import io.sandboxfactory.api.capability.SandboxListing;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.support.HostProcess;
import io.sandboxfactory.provider.support.CommandDefaults;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.net.InetSocketAddress;
import java.util.Set;

/**
 * A configured kubernetes provider: one cluster connection shared by every sandbox it makes, the
 * owner its objects are labelled with, and its tenant (owner and state directory), which its
 * object names and a label carry so that factories sharing a namespace stay apart. {@link #create}
 * does no I/O.
 *
 * <p>As a {@link SandboxInventory} it lists, by label, the sessions of this provider, owner and
 * tenant in the namespace (a claim, with or without its pod; objects of earlier versions, without a
 * tenant label, count as the owner's), and removes one with its pod, claim and policy. {@link #close()} closes a client the provider made; objects in the cluster are untouched.
 */
public final class KubernetesFactorySandbox implements FactorySandbox, SandboxInventory {

    private final KubernetesProviderConfig config;
    private final String owner;
    private final ClusterConnection connection;
    /** This process, as the commands it starts record it (see {@link io.sandboxfactory.provider.support.DeadHostReaper}). */
    private final HostProcess host;
    private final ResourceNames names;
    /** The factory's egress proxy, the one address a session's pod may reach besides nothing (with {@code networkPolicy: deny-all}). */
    private final Optional<InetSocketAddress> egressProxy;

    KubernetesFactorySandbox(KubernetesProviderConfig config, String owner, Path stateDirectory, ClusterConnection connection,
                             Optional<InetSocketAddress> egressProxy) {
        this(config, owner, stateDirectory, connection, HostProcess.current(), egressProxy);
    }

    /** With {@code host} standing for this process: a test plays a host that died. */
    KubernetesFactorySandbox(KubernetesProviderConfig config, String owner, Path stateDirectory, ClusterConnection connection,
                             HostProcess host, Optional<InetSocketAddress> egressProxy) {
        this.egressProxy = egressProxy;
        this.config = config;
        this.owner = owner;
        this.connection = connection;
        this.host = host;
        this.names = ResourceNames.of(owner, stateDirectory);
    }

    /** {@code kubernetes/<runtimeClassName>}, or {@code kubernetes/default} when the cluster's default runtime runs the pods. */
    @Override
    public String isolation() {
        return config.isolation();
    }

    /** The client, for hosts and tests that need the cluster directly. */
    public KubernetesClient client() {
        return connection.client();
    }

    @Override
    public KubernetesSandbox create(FactorySandboxContext ctx) {
        String workingDirectory = ctx.workingDirectory().orElse(config.workingDirectory());
        if (!workingDirectory.startsWith("/")) {
            throw new InvalidInputException(StandardErrorCode.INVALID_PATH, "Working directory '" + workingDirectory + "' of session '" + ctx.sessionId()
                    + "' is invalid; it must be an absolute path inside the pod.");
        }
        SessionObjects objects = new SessionObjects(names.forSession(ctx.sessionId()), names.tenant(), ctx.sessionId(), owner, config,
                SessionObjects.resources(config, ctx.resources()), workingDirectory, egressProxy);
        PodCommandRunner runner = new PodCommandRunner(connection, new CommandDefaults(ctx.sessionId(), config.env(), workingDirectory, host));
        return new KubernetesSandbox(ctx.sessionId(), objects, owner, connection, runner, config.denyAllNetwork(),
                config.readyTimeoutDuration());
    }

    @Override
    public Set<SandboxCapability> capabilities() {
        Set<SandboxCapability> capabilities = EnumSet.of(SandboxCapability.FILES_SURVIVE_STOP,
                SandboxCapability.RECONNECT_ACROSS_PROCESSES, SandboxCapability.RESOURCE_LIMITS, SandboxCapability.INVENTORY,
                SandboxCapability.FILE_TRANSFER, SandboxCapability.ATTACH, SandboxCapability.STREAMS);
        if (config.denyAllNetwork()) {
            capabilities.add(SandboxCapability.NETWORK_ISOLATION);
        }
        return Collections.unmodifiableSet(capabilities);
    }

    @Override
    public List<SandboxListing> listSandboxes() {
        KubernetesClient client = connection.client();
        Map<String, String> selector = SessionLabels.ownedBy(owner);
        List<Pod> pods;
        List<PersistentVolumeClaim> claims;
        try {
            pods = client.pods().inNamespace(config.namespace()).withLabels(selector).list().getItems();
            claims = client.persistentVolumeClaims().inNamespace(config.namespace()).withLabels(selector).list().getItems();
        } catch (RuntimeException e) {
            throw new SandboxException(StandardErrorCode.LIST_FAILED, "Could not list the sandboxes of owner '" + owner + "' in namespace '"
                    + config.namespace() + "' via " + connection.describe() + ": " + KubernetesFailures.message(e), e);
        }
        Map<String, Pod> podsByName = new LinkedHashMap<>();
        pods.stream().filter(p -> SessionLabels.isOwnedBy(p.getMetadata(), owner, names.tenant()))
                .forEach(p -> podsByName.put(p.getMetadata().getName(), p));
        Map<String, HasMetadata> sessions = new LinkedHashMap<>();
        claims.stream().filter(c -> SessionLabels.isOwnedBy(c.getMetadata(), owner, names.tenant()))
                .forEach(c -> sessions.put(c.getMetadata().getName(), c));
        podsByName.forEach(sessions::putIfAbsent);
        List<SandboxListing> listings = new ArrayList<>(sessions.size());
        sessions.forEach((name, object) -> {
            String sessionId = SessionLabels.sessionIdOf(object.getMetadata());
            if (sessionId != null) {
                Pod pod = podsByName.get(name);
                listings.add(new SandboxListing(name, sessionId, state(pod),
                        created(object.getMetadata().getCreationTimestamp())));
            }
        });
        return listings;
    }

    /** A ready pod is up, a failed one broken; claims without a pod (a stopped session) or a pod not ready yet are stopped. */
    private static SandboxListing.State state(Pod pod) {
        if (pod == null) {
            return SandboxListing.State.STOPPED;
        }
        if (PodReadiness.isReady(pod)) {
            return SandboxListing.State.UP;
        }
        return pod.getStatus() != null && "Failed".equals(pod.getStatus().getPhase()) ? SandboxListing.State.BROKEN : SandboxListing.State.STOPPED;
    }

    @Override
    public void removeSandbox(SandboxListing sandbox) {
        KubernetesClient client = connection.client();
        String name = sandbox.sandboxId();
        HasMetadata object = client.persistentVolumeClaims().inNamespace(config.namespace()).withName(name).get();
        if (object == null) {
            object = client.pods().inNamespace(config.namespace()).withName(name).get();
        }
        if (object == null) {
            return;
        }
        if (!SessionLabels.isOwnedBy(object.getMetadata(), owner, names.tenant())) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Refusing to remove '" + name + "' in namespace '" + config.namespace()
                    + "': it is not a sandbox of the kubernetes provider for owner '" + owner + "'.");
        }
        try {
            client.pods().inNamespace(config.namespace()).withName(name).delete();
            client.persistentVolumeClaims().inNamespace(config.namespace()).withName(name).delete();
            client.network().v1().networkPolicies().inNamespace(config.namespace()).withName(name).delete();
            client.network().v1().networkPolicies().inNamespace(config.namespace()).withName(SessionObjects.egressPolicyName(name)).delete();
        } catch (RuntimeException e) {
            throw new SandboxException(StandardErrorCode.REMOVE_FAILED, "Could not remove sandbox '" + name + "' in namespace '"
                    + config.namespace() + "': " + KubernetesFailures.message(e), e);
        }
    }

    private static Optional<Instant> created(String timestamp) {
        if (timestamp == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(Instant.parse(timestamp));
        } catch (DateTimeParseException e) {
            return Optional.empty();
        }
    }

    @Override
    public void close() {
        connection.close();
    }

    @Override
    public String toString() {
        return "KubernetesFactorySandbox[" + config + ", owner=" + owner + "]";
    }
}
