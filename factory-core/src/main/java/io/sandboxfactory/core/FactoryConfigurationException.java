package io.sandboxfactory.core;

import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.SandboxException;

/**
 * The factory could not be built: a provider jar is broken, a provider name is unknown or
 * duplicated, or the configuration is invalid. The message names the offending value and the rule
 * it broke; nothing was created on disk before this was thrown.
 *
 * <p>Codes: {@code PROVIDER_DISCOVERY_FAILED}, {@code UNKNOWN_PROVIDER}, {@code INVALID_CONFIG},
 * {@code PROVIDER_OPEN_FAILED}, {@code STATE_DIRECTORY_FAILED}.
 */
public class FactoryConfigurationException extends SandboxException {
    private static final long serialVersionUID = 1L;

    public FactoryConfigurationException(ErrorCodeSupplier code, String message) {
        super(code, message);
    }

    public FactoryConfigurationException(ErrorCodeSupplier code, String message, Throwable cause) {
        super(code, message, cause);
    }
}
