package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.sandboxfactory.api.ProviderContext;

import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.Optional;

/** A provider context whose only host object is the mock cluster's client (or none), and the factory's egress proxy when given. */
record TestContext(String owner, Path stateDirectory, Optional<KubernetesClient> client, Optional<InetSocketAddress> egressProxy)
        implements ProviderContext {

    /** Without an egress proxy. */
    TestContext(String owner, Path stateDirectory, Optional<KubernetesClient> client) {
        this(owner, stateDirectory, client, Optional.empty());
    }

    @Override
    public <T> Optional<T> lookup(Class<T> type) {
        return type == KubernetesClient.class ? client.map(type::cast) : Optional.empty();
    }
}
