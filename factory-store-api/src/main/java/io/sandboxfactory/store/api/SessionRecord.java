package io.sandboxfactory.store.api;

import java.time.Duration;
import java.time.Instant;
import java.util.Map;
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
 * @param lastUsedAt when it was last opened, started, used or touched
 * @param freshness how its checkouts stood against their upstreams at the last start (see {@code Freshness})
 * @param busyUntil a command runs in it (in some process) at least until then
 * @param stoppedAt when a retirement stopped its sandbox, unless a start came since
 * @param setupStates for an environment: each repository's setup state ({@code done}, {@code failed},
 *     {@code pending}) by checkout directory, in position order; empty otherwise
 *
 * @since 0.1.0
 */
public record SessionRecord(SessionDefinition definition, Optional<String> sandboxId, Optional<String> workdir,
                            Optional<Instant> materializedAt, long generation, Instant createdAt, Instant lastUsedAt,
                            Optional<String> freshness, Optional<Instant> busyUntil, Optional<Instant> stoppedAt,
                            Map<String, String> setupStates) {

    public SessionRecord {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(sandboxId, "sandboxId");
        Objects.requireNonNull(workdir, "workdir");
        Objects.requireNonNull(materializedAt, "materializedAt");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(lastUsedAt, "lastUsedAt");
        Objects.requireNonNull(freshness, "freshness");
        Objects.requireNonNull(busyUntil, "busyUntil");
        Objects.requireNonNull(stoppedAt, "stoppedAt");
        setupStates = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(setupStates));
    }

    public String sessionId() {
        return definition.sessionId();
    }

    /** Whether the session has gone unused for at least {@code idle} at {@code now}, with no command running. */
    public boolean idleFor(Duration idle, Instant now) {
        return !lastUsedAt.plus(idle).isAfter(now) && busyUntil.filter(now::isBefore).isEmpty();
    }
}
