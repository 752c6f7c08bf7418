package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.SandboxProvider;

/**
 * The {@code docker} provider: every session is one Docker container, reached through docker-java
 * with the Apache HttpClient 5 transport and configured from {@link DockerProviderConfig} alone.
 * {@link #open} does no I/O; the engine is contacted on the first start, listing or removal.
 */
public final class DockerSandboxProvider implements SandboxProvider<DockerProviderConfig> {

    public static final String NAME = "docker";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Class<DockerProviderConfig> configType() {
        return DockerProviderConfig.class;
    }

    @Override
    public String description() {
        return "Sessions as Docker containers (one per session, labelled, no network by default).";
    }

    @Override
    public DockerFactorySandbox open(DockerProviderConfig config, ProviderContext context) {
        String owner = context.owner();
        if (owner == null || owner.isBlank()) {
            throw new InvalidInputException(ErrorCode.INVALID_CONFIG, "Owner '" + owner + "' is invalid for the docker provider; it labels every"
                    + " container and must not be blank.");
        }
        return new DockerFactorySandbox(config, owner);
    }
}
