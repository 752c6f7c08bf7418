package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.ResourceRequirements;
import io.fabric8.kubernetes.api.model.ResourceRequirementsBuilder;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyBuilder;
import io.sandboxfactory.api.SandboxResources;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.net.InetSocketAddress;

/**
 * The Kubernetes objects of one session, all named {@link #name()} and labelled alike: the pod
 * (one container running a keep-alive shell as a non-root user with every capability dropped but
 * the configured ones, no privilege escalation, the runtime's default seccomp profile and the
 * configured RuntimeClass; the claim mounted at the working directory), the
 * claim that holds the workspace across pod restarts, and, with {@code networkPolicy: deny-all},
 * a NetworkPolicy that selects only this pod and allows nothing in or out.
 */
final class SessionObjects {

    static final String CONTAINER = "sandbox";
    static final String VOLUME = "workspace";

    /** Keeps the container alive doing nothing; pod deletion ends it at once. */
    static final String KEEP_ALIVE = "trap 'exit 0' TERM INT; while :; do sleep 3600 & wait $!; done";

    /** Seconds the kubelet waits after SIGTERM; the keep-alive loop exits on it at once. */
    static final long GRACE_SECONDS = 3;

    private final String name;
    private final String sessionId;
    private final String owner;
    private final KubernetesProviderConfig config;
    private final ResourceRequirements resources;
    private final String workingDirectory;

    private final String tenant;
    private final Optional<InetSocketAddress> egressProxy;

    /**
     * @param resources the pod's requests and limits ({@link #resources(KubernetesProviderConfig, SandboxResources)})
     * @param egressProxy the factory's egress proxy, which {@link #egressToProxy()} lets the pod reach
     */
    SessionObjects(String name, String tenant, String sessionId, String owner, KubernetesProviderConfig config, ResourceRequirements resources,
                   String workingDirectory, Optional<InetSocketAddress> egressProxy) {
        this.egressProxy = egressProxy;
        this.name = name;
        this.tenant = tenant;
        this.sessionId = sessionId;
        this.owner = owner;
        this.config = config;
        this.resources = resources;
        this.workingDirectory = workingDirectory;
    }

    /** The same objects under {@code other}, for a session whose objects an earlier version named. */
    SessionObjects named(String other) {
        return new SessionObjects(other, tenant, sessionId, owner, config, resources, workingDirectory, egressProxy);
    }

    String name() {
        return name;
    }

    String tenant() {
        return tenant;
    }

    String workingDirectory() {
        return workingDirectory;
    }

    ResourceRequirements resources() {
        return resources;
    }

    private ObjectMeta meta() {
        return new ObjectMetaBuilder()
                .withName(name)
                .withNamespace(config.namespace())
                .withLabels(SessionLabels.forSession(config.labels(), name, owner, tenant))
                .withAnnotations(SessionLabels.annotations(sessionId, owner))
                .build();
    }

    Pod pod() {
        return new PodBuilder()
                .withMetadata(meta())
                .withNewSpec()
                    .withRestartPolicy("Always")
                    .withTerminationGracePeriodSeconds(GRACE_SECONDS)
                    .withServiceAccountName(config.serviceAccount())
                    // Sandboxed code gets no credentials for the API server.
                    .withAutomountServiceAccountToken(false)
                    .withEnableServiceLinks(false)
                    .withNodeSelector(config.nodeSelector().isEmpty() ? null : config.nodeSelector())
                    .withTolerations(config.tolerations().stream().map(KubernetesToleration::toModel).toList())
                    .withRuntimeClassName(config.runtimeClassName())
                    // Non-root, and the claim's files group-owned by that user so the workspace is writable.
                    .withNewSecurityContext()
                        .withRunAsNonRoot(true)
                        .withRunAsUser(config.runAsUser())
                        .withRunAsGroup(config.runAsUser())
                        .withFsGroup(config.runAsUser())
                        .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                    .endSecurityContext()
                    .addNewContainer()
                        .withName(CONTAINER)
                        .withImage(config.image())
                        .withCommand("/bin/sh", "-c", KEEP_ALIVE)
                        .withWorkingDir(workingDirectory)
                        .withStdin(false)
                        .withTty(false)
                        .withResources(resources)
                        .withNewSecurityContext()
                            .withAllowPrivilegeEscalation(false)
                            .withPrivileged(false)
                            .withRunAsNonRoot(true)
                            .withNewSeccompProfile().withType("RuntimeDefault").endSeccompProfile()
                            .withNewCapabilities().withDrop("ALL").withAdd(config.addCapabilities()).endCapabilities()
                        .endSecurityContext()
                        .addNewVolumeMount().withName(VOLUME).withMountPath(workingDirectory).endVolumeMount()
                    .endContainer()
                    .addNewVolume()
                        .withName(VOLUME)
                        .withNewPersistentVolumeClaim().withClaimName(name).endPersistentVolumeClaim()
                    .endVolume()
                .endSpec()
                .build();
    }

    PersistentVolumeClaim claim() {
        return new PersistentVolumeClaimBuilder()
                .withMetadata(meta())
                .withNewSpec()
                    .withAccessModes("ReadWriteOnce")
                    .withStorageClassName(config.storageClass())
                    .withNewResources().addToRequests("storage", new Quantity(config.storageSize())).endResources()
                .endSpec()
                .build();
    }

    /** Selects this session's pod and lists no rule for either direction: nothing in, nothing out. */
    NetworkPolicy denyAll() {
        return new NetworkPolicyBuilder()
                .withMetadata(meta())
                .withNewSpec()
                    .withNewPodSelector().withMatchLabels(Map.of(SessionLabels.SESSION, name)).endPodSelector()
                    .withPolicyTypes(List.of("Ingress", "Egress"))
                .endSpec()
                .build();
    }

    /** The name of a session's policy that lets its pod reach the egress proxy. */
    static String egressPolicyName(String name) {
        return name + "-egress";
    }

    /**
     * Beside {@link #denyAll()}, never merged into it: a policy for egress only whose one rule lets
     * the pod reach the factory's egress proxy (its address, TCP, its port) and nothing else.
     * Policies add up, so with the deny-all one the proxy is the pod's only way out.
     */
    Optional<NetworkPolicy> egressToProxy() {
        return egressProxy.map(proxy -> new NetworkPolicyBuilder()
                .withMetadata(new ObjectMetaBuilder(meta()).withName(egressPolicyName(name)).build())
                .withNewSpec()
                    .withNewPodSelector().withMatchLabels(Map.of(SessionLabels.SESSION, name)).endPodSelector()
                    .withPolicyTypes(List.of("Egress"))
                    .addNewEgress()
                        .addNewTo().withNewIpBlock().withCidr(proxy.getAddress().getHostAddress() + "/32").endIpBlock().endTo()
                        .addNewPort().withProtocol("TCP").withPort(new IntOrString(proxy.getPort())).endPort()
                    .endEgress()
                .endSpec()
                .build());
    }

    /** A session's own resources win; each becomes both request and limit. The config fills the rest. */
    static ResourceRequirements resources(KubernetesProviderConfig config, SandboxResources session) {
        Map<String, Quantity> requests = new LinkedHashMap<>();
        Map<String, Quantity> limits = new LinkedHashMap<>();
        Optional<Quantity> cpu = session.cpus().map(c -> new Quantity(BigDecimal.valueOf(c).multiply(BigDecimal.valueOf(1000))
                .setScale(0, java.math.RoundingMode.CEILING).toPlainString() + "m"));
        Optional<Quantity> memory = session.memoryBytes().map(b -> new Quantity(Long.toString(b)));
        put(requests, "cpu", cpu, config.cpuRequest());
        put(limits, "cpu", cpu, config.cpuLimit());
        put(requests, "memory", memory, config.memoryRequest());
        put(limits, "memory", memory, config.memoryLimit());
        return new ResourceRequirementsBuilder()
                .withRequests(requests.isEmpty() ? null : requests)
                .withLimits(limits.isEmpty() ? null : limits)
                .build();
    }

    private static void put(Map<String, Quantity> into, String key, Optional<Quantity> session, String configured) {
        session.or(() -> Optional.ofNullable(configured).map(Quantity::new)).ifPresent(q -> into.put(key, q));
    }
}
