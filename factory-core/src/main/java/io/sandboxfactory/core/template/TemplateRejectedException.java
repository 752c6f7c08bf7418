package io.sandboxfactory.core.template;

import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.StandardErrorCode;

/** A template does not fit the session after all (its inputs changed since it was built); the open goes on without it. */
public final class TemplateRejectedException extends SandboxException {

    public TemplateRejectedException(String message) {
        super(StandardErrorCode.TEMPLATE_REJECTED, message);
    }
}
