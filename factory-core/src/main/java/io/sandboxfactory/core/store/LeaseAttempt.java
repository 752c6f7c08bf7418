package io.sandboxfactory.core.store;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * The answer to a lease request.
 *
 * @param acquired whether the caller now holds the lease
 * @param holder who holds it (the caller when acquired)
 * @param expiresAt when the current holder's lease runs out unless renewed
 * @param replaced when acquired by taking over another owner's lease that had expired or whose
 *     process is provably gone: that owner. Its work on the session was cut short by a crash.
 */
public record LeaseAttempt(boolean acquired, LeaseOwner holder, Instant expiresAt, Optional<LeaseOwner> replaced) {

    public LeaseAttempt {
        Objects.requireNonNull(holder, "holder");
        Objects.requireNonNull(expiresAt, "expiresAt");
        Objects.requireNonNull(replaced, "replaced");
    }

    /** An attempt that replaced no crashed owner. */
    public LeaseAttempt(boolean acquired, LeaseOwner holder, Instant expiresAt) {
        this(acquired, holder, expiresAt, Optional.empty());
    }
}
