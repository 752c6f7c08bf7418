package io.sandboxfactory.store.api;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer to a lease request.
 *
 * @param acquired whether the caller now holds the lease
 * @param holder who holds it (the caller when acquired)
 * @param expiresAt when the current holder's lease runs out unless renewed (by the store's clock)
 * @param replaced when acquired by taking over another owner's lease that had expired or whose
 *     process is provably gone: that owner. Its work on the session was cut short by a crash.
 * @param fencingToken the token of the current holder's acquisition: when acquired, the caller's
 *     new token, larger than every token handed out for the session before
 *
 * @since 0.1.0
 */
public record LeaseAttempt(boolean acquired, LeaseOwner holder, Instant expiresAt, Optional<LeaseOwner> replaced,
                           long fencingToken) {

    public LeaseAttempt {
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(replaced, "replaced");
    }

    /** The fence writes under this acquisition carry. */
    public Fence fence() {
        return new Fence(fencingToken);
    }
}
