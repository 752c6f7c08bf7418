package io.sandboxfactory.provider.support;

import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * A provider instance's connection (an engine's, a cluster's) was used after the instance was
 * closed: {@link StandardErrorCode#PROVIDER_CLOSED}. A command path catches it to report that the command
 * never ran.
 */
public final class ProviderClosedException extends SandboxException {
    private static final long serialVersionUID = 1L;

    public ProviderClosedException(String message) {
        super(StandardErrorCode.PROVIDER_CLOSED, message);
    }
}
