package io.sandboxfactory.store.api;

import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.SandboxException;

/**
 * A store's settings cannot work: a key it needs is missing, a value breaks its rule, a variable
 * {@link StoreSettings#passwordEnv()} names is not set. Thrown by {@link SessionStoreProvider#open}
 * before the store is reached; the message is one sentence naming the key and the rule, never a
 * password. Code {@link ErrorCode#INVALID_CONFIG}: the user changes the config, nothing failed.
 *
 * @since 0.1.0
 */
public class StoreConfigurationException extends SandboxException {
    private static final long serialVersionUID = 1L;

    public StoreConfigurationException(String message) {
        super(StandardErrorCode.INVALID_CONFIG, message);
    }
}
