package io.sandboxfactory.core.session;

import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * The session was retired while work that started before the retirement was still running (an
 * open, a start): that work is refused instead of leaving a live sandbox behind. Message: {@code
 * Session '<id>' was retired during workspace materialization}.
 */
public class SessionRetiredException extends SandboxException {
    private static final long serialVersionUID = 1L;

    public SessionRetiredException(String sessionId) {
        super(StandardErrorCode.SESSION_RETIRED, "Session '" + sessionId + "' was retired during workspace materialization");
    }

    public SessionRetiredException(String sessionId, Throwable cause) {
        super(StandardErrorCode.SESSION_RETIRED, "Session '" + sessionId + "' was retired during workspace materialization", cause);
    }
}
