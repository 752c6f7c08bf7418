package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.support.AbstractSandboxProvider;
import io.sandboxfactory.provider.support.Owners;

import java.nio.file.Path;
import java.util.List;

/**
 * The {@code kubernetes} provider: every session is one pod with a PersistentVolumeClaim for its
 * workspace, reached through the fabric8 client over the JDK HTTP client and configured from
 * {@link KubernetesProviderConfig} alone, or through a {@link KubernetesClient} the host
 * registered ({@code SandboxFactory.builder().hostObject(KubernetesClient.class, client)}).
 * {@link #open} does no I/O; the cluster is contacted on the first start, listing or removal.
 */
public final class KubernetesSandboxProvider extends AbstractSandboxProvider<KubernetesProviderConfig> {

    public static final String NAME = "kubernetes";

    public KubernetesSandboxProvider() {
        super(NAME, KubernetesProviderConfig.class, "Sessions as Kubernetes pods (one per session, workspace on a"
                + " PersistentVolumeClaim, deny-all network policy by default).");
    }

    @Override
    public KubernetesFactorySandbox open(KubernetesProviderConfig config, ProviderContext context) {
        String owner = Owners.require(context, NAME, "pod and claim");
        Path home = Path.of(context.environment().getOrDefault("HOME", System.getProperty("user.home")));
        ClusterConnection connection = new ClusterConnection(config, context.environment(),
                context.lookup(KubernetesClient.class), home);
        return new KubernetesFactorySandbox(config, owner, context.stateDirectory(), connection, context.egressProxy());
    }

    @Override
    public List<ErrorCodeSupplier> errorCodes() {
        return List.of(KubernetesErrorCode.values());
    }
}
