package io.sandboxfactory.store.api;

import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * The session store could not be read or written.
 *
 * @since 0.1.0
 */
public class SessionStoreException extends SandboxException {
    private static final long serialVersionUID = 1L;

    /**
     * @param code {@link StandardErrorCode#SESSION_STORE}, or a more specific code such as a store's own {@code STORE_BUSY}
     */
    public SessionStoreException(ErrorCodeSupplier code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
