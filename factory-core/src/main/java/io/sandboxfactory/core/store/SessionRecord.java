package io.sandboxfactory.core.store;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A session as the store knows it: its definition plus what the last start left behind.
 *
 * @param definition what the session was opened with
 * @param sandboxId the provider's physical id, persisted by a start for deterministic reattach
 * @param workdir the session root inside the sandbox, once resolved
 * @param materializedAt when a start last finished materializing the repository
 * @param generation bumped by every retirement; work that captured an older value is stale
 * @param createdAt when the session was first registered
 * @param lastUsedAt when it was last opened or started
 */
public record SessionRecord(SessionDefinition definition, Optional<String> sandboxId, Optional<String> workdir,
                            Optional<Instant> materializedAt, long generation, Instant createdAt, Instant lastUsedAt) {

    public SessionRecord {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(sandboxId, "sandboxId");
        Objects.requireNonNull(workdir, "workdir");
        Objects.requireNonNull(materializedAt, "materializedAt");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(lastUsedAt, "lastUsedAt");
    }

    public String sessionId() {
        return definition.sessionId();
    }
}
