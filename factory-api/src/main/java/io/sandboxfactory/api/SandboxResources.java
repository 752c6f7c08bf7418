package io.sandboxfactory.api;

import io.sandboxfactory.api.error.StandardErrorCode;
import java.util.Objects;
import java.util.Optional;

/**
 * Resource limits requested for a sandbox. Providers that declare {@link
 * SandboxCapability#RESOURCE_LIMITS} enforce them; others ignore them.
 *
 * @param cpus number of CPUs (fractions allowed), when limited
 * @param memoryBytes memory limit in bytes, when limited
 * @since 0.1.0
 */
public record SandboxResources(Optional<Double> cpus, Optional<Long> memoryBytes) {

    private static final SandboxResources NONE = new SandboxResources(Optional.empty(), Optional.empty());

    public SandboxResources {
        Objects.requireNonNull(cpus, "cpus");
        Objects.requireNonNull(memoryBytes, "memoryBytes");
        cpus.ifPresent(c -> {
            if (!(c > 0)) {
                throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "CPU limit " + c + " is invalid; it must be positive.");
            }
        });
        memoryBytes.ifPresent(m -> {
            if (m <= 0) {
                throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Memory limit " + m + " is invalid; it must be positive.");
            }
        });
    }

    /** No limits. */
    public static SandboxResources none() {
        return NONE;
    }
}
