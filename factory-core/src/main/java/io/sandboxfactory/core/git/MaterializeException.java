package io.sandboxfactory.core.git;

import io.sandboxfactory.api.SandboxException;

/**
 * Getting the repository into the sandbox failed. These are infrastructure failures: they are
 * never recorded against the session, so the next start retries in full. {@link #code()} is one of
 * {@link #GIT_MISSING}, {@link #EGRESS_BLOCKED}, {@link #CLONE_FAILED}, {@link #FETCH_FAILED},
 * {@link #CHECKOUT_CONFLICT} or {@link #BRANCH_FAILED}.
 */
public class MaterializeException extends SandboxException {
    private static final long serialVersionUID = 1L;

    /** {@code git --version} failed inside the sandbox. */
    public static final String GIT_MISSING = "GIT_MISSING";
    /** The sandbox could not reach the remote: name resolution, connection, unreachable network, timeout. */
    public static final String EGRESS_BLOCKED = "EGRESS_BLOCKED";
    /** {@code git clone} failed for another reason (missing repository, authentication, ...). */
    public static final String CLONE_FAILED = "CLONE_FAILED";
    /** {@code git fetch} of an existing checkout failed. */
    public static final String FETCH_FAILED = "FETCH_FAILED";
    /** The checkout directory holds something that is not ours; it is left untouched. */
    public static final String CHECKOUT_CONFLICT = "CHECKOUT_CONFLICT";
    /** The session branch could not be checked out or created. */
    public static final String BRANCH_FAILED = "BRANCH_FAILED";

    public MaterializeException(String code, String message) {
        super(code, message);
    }
}
