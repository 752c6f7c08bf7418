package io.sandboxfactory.core.store;

import java.time.Instant;
import java.util.Objects;

/**
 * The answer to a lease request.
 *
 * @param acquired whether the caller now holds the lease
 * @param holder who holds it (the caller when acquired)
 * @param expiresAt when the current holder's lease runs out unless renewed
 */
public record LeaseAttempt(boolean acquired, LeaseOwner holder, Instant expiresAt) {

    public LeaseAttempt {
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(expiresAt, "expiresAt");
    }
}
