package io.sandboxfactory.api;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One physical sandbox a provider knows about, as listed by {@link SandboxInventory}.
 *
 * @param sandboxId the provider's physical id (container id, directory path)
 * @param sessionId the session it was made for
 * @param running whether it is running right now
 * @param createdAt when it was made, when known
 * @since 0.1.0
 */
public record SandboxListing(String sandboxId, String sessionId, boolean running, Optional<Instant> createdAt) {

    public SandboxListing {
        Objects.requireNonNull(sandboxId, "sandboxId");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(createdAt, "createdAt");
    }
}
