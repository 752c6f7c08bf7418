package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.ErrorKind;
import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * The codes only the docker provider raises (its lifecycle failures use StandardErrorCode's
 * CREATE_FAILED, DESTROY_FAILED, ...); {@code DockerSandboxProvider.errorCodes()} lists them.
 */
public enum DockerErrorCode implements ErrorCodeSupplier {
    DOCKER_UNAVAILABLE(ErrorKind.INFRASTRUCTURE,
            "No Docker engine answers at the configured host. Start the engine (`scripts/docker-up.sh`) or "
            + "set `providers.docker.host`."),
    DOCKER_UNSUPPORTED(ErrorKind.INFRASTRUCTURE,
            "The engine's API version is older than the provider needs or than `apiVersion` asks. Upgrade the"
            + " engine or change `providers.docker.apiVersion`."),
    IMAGE_MISSING(ErrorKind.INFRASTRUCTURE,
            "The configured image is not on the engine (the provider never pulls). Build or pull the image, "
            + "or set `providers.docker.image`."),
    CONTAINER_NAME_TAKEN(ErrorKind.SANDBOX,
            "A container with the session's name exists but is not this session's. Remove that container or "
            + "use another session id.");

    private final ErrorCode code;

    DockerErrorCode(ErrorKind kind, String meaning) {
        this.code = new ErrorCode(name(), kind, meaning);
    }

    @Override
    public ErrorCode toErrorCode() {
        return code;
    }
}
