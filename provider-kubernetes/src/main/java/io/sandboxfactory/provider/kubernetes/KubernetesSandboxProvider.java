package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.SandboxProvider;

import java.nio.file.Path;

/**
 * The {@code kubernetes} provider: every session is one pod with a PersistentVolumeClaim for its
 * workspace, reached through the fabric8 client over the JDK HTTP client and configured from
 * {@link KubernetesProviderConfig} alone, or through a {@link KubernetesClient} the host
 * registered ({@code SandboxFactory.builder().hostObject(KubernetesClient.class, client)}).
 * {@link #open} does no I/O; the cluster is contacted on the first start, listing or removal.
 */
public final class KubernetesSandboxProvider implements SandboxProvider<KubernetesProviderConfig> {

    public static final String NAME = "kubernetes";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Class<KubernetesProviderConfig> configType() {
        return KubernetesProviderConfig.class;
    }

    @Override
    public String description() {
        return "Sessions as Kubernetes pods (one per session, workspace on a PersistentVolumeClaim, deny-all network policy by default).";
    }

    @Override
    public KubernetesFactorySandbox open(KubernetesProviderConfig config, ProviderContext context) {
        String owner = context.owner();
        if (owner == null || owner.isBlank()) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, "Owner '" + owner + "' is invalid for the kubernetes provider; it labels every"
                    + " pod and claim and must not be blank.");
        }
        Path home = Path.of(context.environment().getOrDefault("HOME", System.getProperty("user.home")));
        ClusterConnection connection = new ClusterConnection(config, context.environment(),
                context.lookup(KubernetesClient.class), home);
        return new KubernetesFactorySandbox(config, owner, connection);
    }
}
