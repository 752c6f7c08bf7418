package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.sandboxfactory.api.capability.AttachableSandbox;
import io.sandboxfactory.api.capability.StreamingSandbox;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.provider.support.RemoteSandbox;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.files.TransferEntry;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * The sandbox of one session: a pod and the PersistentVolumeClaim its workspace lives on, both
 * named {@link ResourceNames#forSession} ({@link #name()}) in the configured namespace; the handle is that name.
 *
 * <p>Acquisition: {@link #find()} reports the session when its pod or its claim exists (a stopped
 * session is a claim without a pod) and only accepts objects whose labels and annotations name this
 * session, provider and owner. {@link #connect} makes the pod when it is missing (on the existing
 * claim, so files survive) and waits for it to be Ready. {@link #create()} makes the policy (with
 * {@code networkPolicy: deny-all}, before the pod so the pod never runs unguarded), the claim and
 * the pod; an {@code AlreadyExists} (409) on the pod means another replica won, and this instance
 * connects to that pod. {@link #stop()} deletes the pod and keeps the claim; {@link #destroy()}
 * deletes pod, claim and policy and waits until they are gone, so the next start begins afresh.
 */
public final class KubernetesSandbox extends RemoteSandbox<String> implements AttachableSandbox, StreamingSandbox {

    /** How long stop and destroy wait for deleted objects to disappear. */
    private static final Duration GONE_WAIT = Duration.ofSeconds(120);

    private final ClusterConnection connection;
    /** This session's objects; switched once by {@link #find()} to the name an earlier version gave them. */
    private volatile SessionObjects objects;
    private final String owner;
    private final boolean denyAll;
    private final Duration readyTimeout;
    /** The provider's variables, under the session's own in every command and in an attach's shell. */
    private final Map<String, String> baseEnv;
    private final PodCommandRunner runner;

    KubernetesSandbox(String sessionId, SessionObjects objects, String owner, ClusterConnection connection,
                      PodCommandRunner runner, boolean denyAll, Duration readyTimeout) {
        super(sessionId, objects.name(), objects.workingDirectory(), runner, new PodFileTransfer(runner));
        this.connection = connection;
        this.objects = objects;
        this.owner = owner;
        this.denyAll = denyAll;
        this.readyTimeout = readyTimeout;
        this.baseEnv = runner.defaults().baseEnv();
        this.runner = runner;
    }

    /**
     * An exec of {@code argv} in the pod, its input framed ({@link PodStreams}); also while a start
     * hook runs (the factory opens its channels from one); never starts the sandbox.
     */
    @Override
    public SandboxStream openStream(List<String> argv) {
        return PodStreams.open(runner, acquiredHandle(), argv);
    }

    /**
     * {@code kubectl exec} into the pod, as {@link KubernetesShell} describes, after writing the
     * variables the session's commands get (the provider's, then the session's own) to the file its
     * shell reads. Should kubectl never start, the file stays in the pod's {@code /tmp}, where
     * every command of the session has those values anyway.
     */
    @Override
    public Attach attach(Request request) {
        String pod = runningHandle();
        Map<String, String> variables = new LinkedHashMap<>(baseEnv);
        variables.putAll(getEnv());
        byte[] exports = KubernetesShell.exports(variables).getBytes(StandardCharsets.UTF_8);
        TransferEntry file = TransferEntry.file(KubernetesShell.newFileName(), exports.length, 0600);
        copyIn(KubernetesShell.FILE_DIRECTORY, KubernetesShell.FILE_DIRECTORY, new Source() {
            @Override
            public List<TransferEntry> entries() {
                return List.of(file);
            }

            @Override
            public InputStream open(TransferEntry entry) {
                return new ByteArrayInputStream(exports);
            }
        });
        return KubernetesShell.attach(pod, request, KubernetesShell.FILE_DIRECTORY + "/" + file.path(), connection.kubectlOptions(),
                connection.ignoresKubeconfigVariable());
    }

    @Override
    protected Optional<String> find() {
        KubernetesClient client = connection.client();
        Optional<String> found = findNamed(client);
        if (found.isPresent()) {
            return found;
        }
        // Objects made before names carried the tenant: adopted when they say they are this session's.
        String legacy = ResourceNames.legacyName(id());
        if (!legacy.equals(objects.name()) && isThisSession(client.pods().inNamespace(connection.namespace()).withName(legacy).get(),
                client.persistentVolumeClaims().inNamespace(connection.namespace()).withName(legacy).get())) {
            objects = objects.named(legacy);
            return Optional.of(legacy);
        }
        return Optional.empty();
    }

    private boolean isThisSession(Pod pod, PersistentVolumeClaim claim) {
        HasMetadata object = pod != null ? pod : claim != null && !isTerminating(claim) ? claim : null;
        return object != null && SessionLabels.isSession(object.getMetadata(), id(), owner, objects.tenant());
    }

    private Optional<String> findNamed(KubernetesClient client) {
        Pod pod = pod(client).get();
        if (pod != null) {
            requireThisSession(pod, "Pod");
            return Optional.of(objects.name());
        }
        PersistentVolumeClaim claim = claim(client).get();
        if (claim != null && !isTerminating(claim)) {
            requireThisSession(claim, "PersistentVolumeClaim");
            return Optional.of(objects.name());
        }
        return Optional.empty();
    }

    @Override
    protected void connect(String name) throws InterruptedException {
        KubernetesClient client = connection.client();
        if (denyAll) {
            createPolicies(client);
        }
        if (ensurePod(client)) {
            // Running: a host that died while it ran commands here may have left them running.
            reapDeadHosts(name);
        }
    }

    /** The deny-all policy first, then (egress allow-list) the separate one that lets the pod reach the egress proxy only. */
    private void createPolicies(KubernetesClient client) {
        createIfAbsent(() -> client.network().v1().networkPolicies().inNamespace(connection.namespace())
                .resource(objects.denyAll()).create(), "NetworkPolicy");
        Optional<NetworkPolicy> toProxy = objects.egressToProxy();
        if (toProxy.isPresent()) {
            createIfAbsent(() -> client.network().v1().networkPolicies().inNamespace(connection.namespace())
                    .resource(toProxy.get()).create(), "NetworkPolicy");
        }
    }

    @Override
    protected String create() throws InterruptedException {
        KubernetesClient client = connection.client();
        if (denyAll) {
            createPolicies(client);
        }
        createClaim(client);
        ensurePod(client);
        return objects.name();
    }

    private void createClaim(KubernetesClient client) throws InterruptedException {
        long deadline = System.nanoTime() + GONE_WAIT.toNanos();
        while (true) {
            try {
                claim(client).create(objects.claim());
                return;
            } catch (RuntimeException e) {
                if (!KubernetesFailures.isConflict(e)) {
                    throw failure(StandardErrorCode.CREATE_FAILED, "create PersistentVolumeClaim", e);
                }
            }
            PersistentVolumeClaim existing = claim(client).get();
            if (existing != null && !isTerminating(existing)) {
                // Another replica made it first (or a stopped session's claim): use it if it is this session's.
                requireThisSession(existing, "PersistentVolumeClaim");
                return;
            }
            // A destroyed session's claim is still going away: its name frees up soon.
            pause(deadline, "PersistentVolumeClaim");
        }
    }

    /**
     * Makes the pod when missing (409: someone else made it, fine), replaces a dead one, and waits for
     * Ready; returns whether the pod was there and alive already (its commands may still run).
     */
    private boolean ensurePod(KubernetesClient client) throws InterruptedException {
        long deadline = System.nanoTime() + GONE_WAIT.toNanos();
        boolean existed = true;
        while (true) {
            Pod pod = pod(client).get();
            if (pod == null) {
                existed = false;
                try {
                    pod(client).create(objects.pod());
                } catch (RuntimeException e) {
                    if (!KubernetesFailures.isConflict(e)) {
                        throw failure(StandardErrorCode.CREATE_FAILED, "create pod", e);
                    }
                    // AlreadyExists: another replica created this session's pod first; connect to it below.
                }
                continue;
            }
            requireThisSession(pod, "Pod");
            if (isTerminating(pod) || PodReadiness.isTerminal(pod)) {
                if (!isTerminating(pod)) {
                    deleteQuietly(pod(client));
                }
                existed = false;
                pause(deadline, "Pod");
                continue;
            }
            break;
        }
        try {
            PodReadiness.await(client, connection.namespace(), objects.name(), id(), readyTimeout);
        } catch (SandboxException notReady) {
            if (!(notReady instanceof SandboxDestroyedException)) {
                // The pod spec cannot change; without this pod, a start after the cause is fixed makes a fresh one.
                deleteQuietly(pod(client));
            }
            throw notReady;
        }
        return existed;
    }

    @Override
    protected void doStop(String name) throws InterruptedException {
        KubernetesClient client = connection.client();
        try {
            pod(client).delete();
        } catch (RuntimeException e) {
            throw failure(StandardErrorCode.STOP_FAILED, "delete pod", e);
        }
        awaitGone(pod(client), "Pod");
    }

    @Override
    protected void doDestroy(String name) throws InterruptedException {
        KubernetesClient client = connection.client();
        try {
            pod(client).delete();
            claim(client).delete();
            client.network().v1().networkPolicies().inNamespace(connection.namespace()).withName(objects.name()).delete();
            client.network().v1().networkPolicies().inNamespace(connection.namespace())
                    .withName(SessionObjects.egressPolicyName(objects.name())).delete();
        } catch (RuntimeException e) {
            throw failure(StandardErrorCode.DESTROY_FAILED, "delete the objects", e);
        }
        awaitGone(pod(client), "Pod");
        awaitGone(claim(client), "PersistentVolumeClaim");
    }

    private Resource<Pod> pod(KubernetesClient client) {
        return client.pods().inNamespace(connection.namespace()).withName(objects.name());
    }

    private Resource<PersistentVolumeClaim> claim(KubernetesClient client) {
        return client.persistentVolumeClaims().inNamespace(connection.namespace()).withName(objects.name());
    }

    private void createIfAbsent(Supplier<?> create, String kind) {
        try {
            create.get();
        } catch (RuntimeException e) {
            if (!KubernetesFailures.isConflict(e)) {
                throw failure(StandardErrorCode.CREATE_FAILED, "create " + kind, e);
            }
        }
    }

    private <T extends HasMetadata> void awaitGone(Resource<T> resource, String kind) throws InterruptedException {
        long deadline = System.nanoTime() + GONE_WAIT.toNanos();
        while (resource.get() != null) {
            pause(deadline, kind);
        }
    }

    private void pause(long deadline, String kind) throws InterruptedException {
        if (System.nanoTime() > deadline) {
            throw new SandboxException(KubernetesErrorCode.DELETE_TIMEOUT, kind + " '" + objects.name() + "' of session '" + id()
                    + "' in namespace '" + connection.namespace() + "' is still being deleted after " + GONE_WAIT + ".");
        }
        Thread.sleep(200);
    }

    private static boolean isTerminating(HasMetadata object) {
        return object.getMetadata() != null && object.getMetadata().getDeletionTimestamp() != null;
    }

    private void requireThisSession(HasMetadata object, String kind) {
        ObjectMeta meta = object.getMetadata();
        if (!SessionLabels.isSession(meta, id(), owner, objects.tenant())) {
            throw new SandboxException(KubernetesErrorCode.NAME_TAKEN, kind + " '" + objects.name() + "' in namespace '" + connection.namespace()
                    + "' exists but is not the sandbox of session '" + id() + "' for owner '" + owner + "' (it says session '"
                    + SessionLabels.sessionIdOf(meta) + "'); delete it or use another session id.");
        }
    }

    private SandboxException failure(ErrorCodeSupplier code, String what, RuntimeException e) {
        return new SandboxException(code, "Sandbox '" + id() + "' could not " + what + " '" + objects.name() + "' in namespace '"
                + connection.namespace() + "' via " + connection.describe() + ": " + KubernetesFailures.message(e), e);
    }

    private static void deleteQuietly(Resource<Pod> pod) {
        try {
            pod.delete();
        } catch (RuntimeException ignored) {
            // Best effort; the readiness failure is what the caller needs to see.
        }
    }
}
