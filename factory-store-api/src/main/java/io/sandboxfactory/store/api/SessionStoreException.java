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

    public SessionStoreException(String message, Throwable cause) {
        this(StandardErrorCode.SESSION_STORE, message, cause);
    }

    /** With a more specific code than {@link StandardErrorCode#SESSION_STORE}, such as a store's own {@code STORE_BUSY}. */
    public SessionStoreException(ErrorCodeSupplier code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
