package io.sandboxfactory.api;

import java.util.Optional;

/**
 * Every failure code the framework and the bundled providers raise. {@link #name()} is the stable
 * string of {@code --json} output and MCP results; {@code docs/errors.md} gives each one's cause
 * and fix (a test keeps that catalogue and this enum equal). Codes are grouped by where they arise.
 *
 * @since 0.1.0
 */
public enum ErrorCode {
    // The sandbox contract (factory-api)
    SANDBOX_ERROR(ErrorKind.SANDBOX),
    START_FAILED(ErrorKind.SANDBOX),
    START_HOOK_FAILED(ErrorKind.SANDBOX),
    INTERRUPTED(ErrorKind.INFRASTRUCTURE),
    DESTROYED(ErrorKind.SANDBOX),
    NOT_READY(ErrorKind.SANDBOX),
    TIMEOUT(ErrorKind.SANDBOX),
    EXEC_TRANSPORT(ErrorKind.INFRASTRUCTURE),
    CWD_MISSING(ErrorKind.SANDBOX),
    FILE_NOT_FOUND(ErrorKind.BAD_INPUT),
    NOT_A_DIRECTORY(ErrorKind.BAD_INPUT),
    IS_A_DIRECTORY(ErrorKind.BAD_INPUT),
    NOT_A_REGULAR_FILE(ErrorKind.BAD_INPUT),
    DIRECTORY_NOT_EMPTY(ErrorKind.BAD_INPUT),
    PATH_OUTSIDE_ROOT(ErrorKind.BAD_INPUT),
    FILE_CHANGED(ErrorKind.SANDBOX),
    FILE_OPERATION_FAILED(ErrorKind.SANDBOX),
    INVALID_ARGUMENT(ErrorKind.BAD_INPUT),
    INVALID_SESSION_ID(ErrorKind.BAD_INPUT),

    // Building the factory: config, discovery, the provider's open
    INVALID_CONFIG(ErrorKind.BAD_INPUT),
    UNKNOWN_PROVIDER(ErrorKind.BAD_INPUT),
    PROVIDER_DISCOVERY_FAILED(ErrorKind.BAD_INPUT),
    STATE_DIRECTORY_FAILED(ErrorKind.BAD_INPUT),
    UNKNOWN_STORE(ErrorKind.BAD_INPUT),
    STORE_DISCOVERY_FAILED(ErrorKind.BAD_INPUT),
    PROVIDER_OPEN_FAILED(ErrorKind.INFRASTRUCTURE),

    // Sessions (factory-core)
    INVALID_REF(ErrorKind.BAD_INPUT),
    INVALID_REPOSITORY(ErrorKind.BAD_INPUT),
    INVALID_LABEL(ErrorKind.BAD_INPUT),
    INVALID_PATH(ErrorKind.BAD_INPUT),
    SESSION_NOT_OPEN(ErrorKind.BAD_INPUT),
    SESSION_RETIRED(ErrorKind.SANDBOX),
    PROVIDER_CONTRACT(ErrorKind.INFRASTRUCTURE),
    PROBE_FAILED(ErrorKind.SANDBOX),
    WORKDIR_UNKNOWN(ErrorKind.SANDBOX),
    ROOT_MISSING(ErrorKind.SANDBOX),
    NOT_MATERIALIZED(ErrorKind.SANDBOX),
    SWEEP_UNSUPPORTED(ErrorKind.SANDBOX),
    GIT_MISSING(ErrorKind.SANDBOX),
    EGRESS_BLOCKED(ErrorKind.INFRASTRUCTURE),
    CLONE_FAILED(ErrorKind.INFRASTRUCTURE),
    FETCH_FAILED(ErrorKind.INFRASTRUCTURE),
    CHECKOUT_CONFLICT(ErrorKind.SANDBOX),
    BRANCH_FAILED(ErrorKind.SANDBOX),
    SETUP_FAILED(ErrorKind.SANDBOX),
    TEMPLATES_UNSUPPORTED(ErrorKind.SANDBOX),
    TEMPLATE_BUILD_FAILED(ErrorKind.SANDBOX),
    TEMPLATE_REJECTED(ErrorKind.SANDBOX),
    SESSION_STORE(ErrorKind.INFRASTRUCTURE),
    /** The session store answers, but every connection of this process's pool stayed in use for as long as an operation waits. */
    STORE_BUSY(ErrorKind.INFRASTRUCTURE),
    LEASE_LOST(ErrorKind.INFRASTRUCTURE),

    // The bundled providers
    FOREIGN_DIRECTORY(ErrorKind.SANDBOX),
    CALLBACK_MISSING(ErrorKind.BAD_INPUT),
    CALLBACK_INVALID(ErrorKind.SANDBOX),
    PROVIDER_CLOSED(ErrorKind.BAD_INPUT),
    DOCKER_UNAVAILABLE(ErrorKind.INFRASTRUCTURE),
    DOCKER_UNSUPPORTED(ErrorKind.INFRASTRUCTURE),
    IMAGE_MISSING(ErrorKind.INFRASTRUCTURE),
    CONTAINER_NAME_TAKEN(ErrorKind.SANDBOX),
    KUBERNETES_UNAVAILABLE(ErrorKind.INFRASTRUCTURE),
    POD_FAILED(ErrorKind.SANDBOX),
    POD_NOT_READY(ErrorKind.SANDBOX),
    NAME_TAKEN(ErrorKind.SANDBOX),
    DELETE_TIMEOUT(ErrorKind.INFRASTRUCTURE),
    CREATE_FAILED(ErrorKind.INFRASTRUCTURE),
    STOP_FAILED(ErrorKind.INFRASTRUCTURE),
    DESTROY_FAILED(ErrorKind.INFRASTRUCTURE),
    LIST_FAILED(ErrorKind.INFRASTRUCTURE),
    REMOVE_FAILED(ErrorKind.INFRASTRUCTURE),

    // The CLI
    BAD_INPUT(ErrorKind.BAD_INPUT),
    FAILED(ErrorKind.INFRASTRUCTURE);

    private final ErrorKind kind;

    ErrorCode(ErrorKind kind) {
        this.kind = kind;
    }

    /** Who can fix a failure with this code. */
    public ErrorKind kind() {
        return kind;
    }

    /** The code spelled {@code name}, if there is one. */
    public static Optional<ErrorCode> named(String name) {
        for (ErrorCode code : values()) {
            if (code.name().equals(name)) {
                return Optional.of(code);
            }
        }
        return Optional.empty();
    }
}
