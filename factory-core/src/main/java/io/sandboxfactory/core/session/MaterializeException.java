package io.sandboxfactory.core.session;

import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.SandboxException;

/**
 * Getting the repository into the sandbox failed. These are infrastructure failures: they are
 * never recorded against the session, so the next start retries in full. {@link #errorCode()} is one of
 * {@code GIT_MISSING} ({@code git --version} failed in the sandbox), {@code EGRESS_BLOCKED} (the
 * remote is unreachable from the sandbox), {@code CLONE_FAILED}, {@code FETCH_FAILED}, {@code
 * CHECKOUT_CONFLICT} (the checkout directory holds something not ours, left untouched) or {@code
 * BRANCH_FAILED} (the session branch could not be checked out or created).
 */
public class MaterializeException extends SandboxException {
    private static final long serialVersionUID = 1L;

    public MaterializeException(ErrorCodeSupplier code, String message) {
        super(code, message);
    }
}
