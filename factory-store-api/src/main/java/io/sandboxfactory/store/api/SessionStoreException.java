package io.sandboxfactory.store.api;

import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.SandboxException;

/**
 * The session store could not be read or written.
 *
 * @since 0.1.0
 */
public class SessionStoreException extends SandboxException {
    private static final long serialVersionUID = 1L;

    public SessionStoreException(String message, Throwable cause) {
        this(ErrorCode.SESSION_STORE, message, cause);
    }

    /** With a more specific code than {@link ErrorCode#SESSION_STORE}, such as {@link ErrorCode#STORE_BUSY}. */
    public SessionStoreException(ErrorCode code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
