package io.sandboxfactory.store.api;

import io.sandboxfactory.api.error.StandardErrorCode;


/**
 * A fenced write was refused: the session's lease was acquired again, with a newer token, after the
 * writer got its own. The writer lost the lease (it was paused or cut off past the lease's expiry,
 * and another owner took over); what the new owner wrote stands.
 *
 * @since 0.1.0
 */
public class FencedOutException extends SessionStoreException {
    private static final long serialVersionUID = 1L;

    private final String sessionId;
    private final long refusedToken;
    private final long currentToken;

    public FencedOutException(String sessionId, String what, long refusedToken, long currentToken) {
        super(StandardErrorCode.LEASE_LOST, "Session '" + sessionId + "': " + what + " under lease token " + refusedToken
                + " was refused, because the lease was taken since with token " + currentToken
                + " (this owner lost it, e.g. paused past its expiry); the newer owner's state stands.", null);
        this.sessionId = sessionId;
        this.refusedToken = refusedToken;
        this.currentToken = currentToken;
    }

    public String sessionId() {
        return sessionId;
    }

    public long refusedToken() {
        return refusedToken;
    }

    public long currentToken() {
        return currentToken;
    }
}
