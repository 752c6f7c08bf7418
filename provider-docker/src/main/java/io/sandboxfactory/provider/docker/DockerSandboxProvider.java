package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.support.AbstractSandboxProvider;
import io.sandboxfactory.provider.support.Owners;

import java.util.List;

/**
 * The {@code docker} provider: every session is one Docker container, reached through docker-java
 * with the Apache HttpClient 5 transport and configured from {@link DockerProviderConfig} alone.
 * {@link #open} does no I/O; the engine is contacted on the first start, listing or removal.
 */
public final class DockerSandboxProvider extends AbstractSandboxProvider<DockerProviderConfig> {

    public static final String NAME = "docker";

    public DockerSandboxProvider() {
        super(NAME, DockerProviderConfig.class,
                "Sessions as Docker containers (one per session, labelled, no network by default).");
    }

    @Override
    public DockerFactorySandbox open(DockerProviderConfig config, ProviderContext context) {
        return new DockerFactorySandbox(config, Tenant.of(Owners.require(context, NAME, "container"), context.stateDirectory()));
    }

    @Override
    public List<ErrorCodeSupplier> errorCodes() {
        return List.of(DockerErrorCode.values());
    }
}
