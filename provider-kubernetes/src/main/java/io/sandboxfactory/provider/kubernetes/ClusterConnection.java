package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.jdkhttp.JdkHttpClientFactory;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.provider.support.ProviderClosedException;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The provider instance's one fabric8 client, made on first use from the config alone (see {@link
 * KubernetesProviderConfig}) over the JDK HTTP client, or the host's own client when it registered
 * one. Only a client made here is closed here.
 */
final class ClusterConnection implements AutoCloseable {

    static final String SERVICE_ACCOUNT_DIR = "/var/run/secrets/kubernetes.io/serviceaccount";

    private final KubernetesProviderConfig config;
    private final Map<String, String> environment;
    private final Optional<KubernetesClient> hostClient;
    private final Path home;
    private KubernetesClient client;
    private boolean closed;

    ClusterConnection(KubernetesProviderConfig config, Map<String, String> environment, Optional<KubernetesClient> hostClient,
                      Path home) {
        this.config = config;
        this.environment = Map.copyOf(environment);
        this.hostClient = hostClient;
        this.home = home;
    }

    synchronized KubernetesClient client() {
        if (closed) {
            throw new ProviderClosedException("The kubernetes provider instance is closed.");
        }
        if (hostClient.isPresent()) {
            return hostClient.get();
        }
        if (client == null) {
            client = new KubernetesClientBuilder()
                    .withConfig(clientConfig())
                    .withHttpClientFactory(new JdkHttpClientFactory())
                    .build();
        }
        return client;
    }

    String namespace() {
        return config.namespace();
    }

    /** Where the API server is, for messages. */
    String describe() {
        if (hostClient.isPresent()) {
            return "the host's client (" + hostClient.get().getMasterUrl() + ")";
        }
        if (config.useEnvironment()) {
            return "fabric8's environment settings";
        }
        if (config.inCluster()) {
            return "the in-cluster API server";
        }
        return "kubeconfig " + kubeconfigPath() + (config.context() == null ? "" : " context '" + config.context() + "'");
    }

    private Config clientConfig() {
        if (config.useEnvironment()) {
            return Config.autoConfigure(config.context());
        }
        if (config.inCluster()) {
            return inClusterConfig();
        }
        Path file = kubeconfigPath();
        String contents;
        try {
            contents = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new SandboxException(KubernetesErrorCode.KUBERNETES_UNAVAILABLE, "Kubeconfig " + file + " cannot be read (" + e.getMessage()
                    + "); set providers.kubernetes.kubeconfig, inCluster or useEnvironment.", e);
        }
        try {
            // fromKubeconfig reads this file only: no KUBECONFIG, no system properties, no environment.
            return Config.fromKubeconfig(config.context(), contents, file.toString());
        } catch (RuntimeException e) {
            throw new SandboxException(KubernetesErrorCode.KUBERNETES_UNAVAILABLE, "Kubeconfig " + file + " has no usable context"
                    + (config.context() == null ? "" : " '" + config.context() + "'") + ": " + e.getMessage(), e);
        }
    }

    private Config inClusterConfig() {
        String host = environment.get("KUBERNETES_SERVICE_HOST");
        String port = environment.getOrDefault("KUBERNETES_SERVICE_PORT", "443");
        if (host == null || host.isBlank()) {
            throw new SandboxException(KubernetesErrorCode.KUBERNETES_UNAVAILABLE, "providers.kubernetes.inCluster is true but"
                    + " KUBERNETES_SERVICE_HOST is not set; this process does not run in a pod.");
        }
        Path token = Path.of(SERVICE_ACCOUNT_DIR, "token");
        String authority = host.contains(":") ? "[" + host + "]" : host;
        return new ConfigBuilder(Config.empty())
                .withMasterUrl("https://" + authority + ":" + port)
                .withCaCertFile(SERVICE_ACCOUNT_DIR + "/ca.crt")
                // Read on every request: the kubelet rotates projected tokens.
                .withOauthTokenProvider(() -> {
                    try {
                        return Files.readString(token, StandardCharsets.UTF_8).trim();
                    } catch (IOException e) {
                        throw new SandboxException(KubernetesErrorCode.KUBERNETES_UNAVAILABLE, "The service account token " + token
                                + " cannot be read: " + e.getMessage(), e);
                    }
                })
                .build();
    }

    /**
     * kubectl's options that reach the cluster and namespace this connection does: the kubeconfig
     * file and context it reads; none in a pod, where kubectl uses the pod's service account as the
     * provider does; the context alone with {@code useEnvironment}, where kubectl reads {@code
     * KUBECONFIG} as fabric8 does. Never a credential. A host's own client is not described: kubectl
     * then reaches what the config names.
     */
    List<String> kubectlOptions() {
        List<String> options = new ArrayList<>();
        if (!config.useEnvironment() && !config.inCluster()) {
            options.addAll(List.of("--kubeconfig", kubeconfigPath().toString()));
        }
        if (config.context() != null && (config.useEnvironment() || !config.inCluster())) {
            options.addAll(List.of("--context", config.context()));
        }
        options.addAll(List.of("--namespace", config.namespace()));
        return options;
    }

    /** Whether kubectl must not see {@code KUBECONFIG}: the provider ignores it unless it honours the environment. */
    boolean ignoresKubeconfigVariable() {
        return !config.useEnvironment();
    }

    Path kubeconfigPath() {
        return config.kubeconfig() == null ? home.resolve(".kube").resolve("config") : Path.of(config.kubeconfig());
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (client != null) {
            client.close();
            client = null;
        }
    }
}
