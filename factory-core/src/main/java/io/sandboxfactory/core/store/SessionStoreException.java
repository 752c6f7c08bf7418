package io.sandboxfactory.core.store;

import io.sandboxfactory.api.SandboxException;

/** The session store could not be read or written. */
public class SessionStoreException extends SandboxException {
    private static final long serialVersionUID = 1L;

    public SessionStoreException(String message, Throwable cause) {
        this("SESSION_STORE", message, cause);
    }

    protected SessionStoreException(String code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
