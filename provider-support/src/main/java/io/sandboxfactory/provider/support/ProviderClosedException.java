package io.sandboxfactory.provider.support;

import io.sandboxfactory.api.ErrorCode;
import io.sandboxfactory.api.SandboxException;

/**
 * A provider instance's connection (an engine's, a cluster's) was used after the instance was
 * closed: {@link ErrorCode#PROVIDER_CLOSED}. A command path catches it to report that the command
 * never ran.
 */
public final class ProviderClosedException extends SandboxException {
    private static final long serialVersionUID = 1L;

    public ProviderClosedException(String message) {
        super(ErrorCode.PROVIDER_CLOSED, message);
    }
}
