package io.sandboxfactory.store.api;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;


/**
 * The fencing token a write carries (design §5.15): the number a lease acquisition handed out. A
 * store refuses a fenced write with {@link FencedOutException} when the session's lease has since
 * been acquired with a larger token, so an owner that lost its lease (paused, partitioned, presumed
 * crashed) cannot overwrite what the new owner wrote. Tokens start at 1 and grow with every
 * acquisition of the session's lease, by any owner, for as long as the store lives.
 *
 * @param token the token; {@code 0} ({@link #NONE}) is a write outside any lease, never refused
 *
 * @since 0.1.0
 */
public record Fence(long token) {

    /** A write made without holding the lease (a touch, a host's own bookkeeping): never refused. */
    public static final Fence NONE = new Fence(0);

    public Fence {
        if (token < 0) {
            throw new InvalidInputException(StandardErrorCode.INVALID_ARGUMENT, "Fencing token " + token + " is invalid; it must be 0 (none) or positive.");
        }
    }

    /** Whether this write is fenced at all. */
    public boolean fenced() {
        return token > 0;
    }

    /** Whether a write with this fence is refused when the session's lease carries {@code current}. */
    public boolean refusedBy(long current) {
        return fenced() && current > token;
    }
}
