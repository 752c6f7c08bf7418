package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.sandboxfactory.api.ProviderContext;

import java.nio.file.Path;
import java.util.Optional;

/** A provider context whose only host object is the mock cluster's client (or none). */
record TestContext(String owner, Path stateDirectory, Optional<KubernetesClient> client) implements ProviderContext {

    @Override
    public <T> Optional<T> lookup(Class<T> type) {
        return type == KubernetesClient.class ? client.map(type::cast) : Optional.empty();
    }
}
