package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxStartHookException;

/**
 * Starts a sandbox and reports a failure of the session hook as the hook's own exception — a
 * {@code SetupCommandException} keeps its exact message instead of being wrapped in {@code Sandbox
 * '<id>' onStart hook failed: ...}.
 */
final class StartFailures {

    private StartFailures() {
    }

    static void start(MastraSandbox<?> sandbox) {
        try {
            sandbox.start();
        } catch (SandboxStartHookException e) {
            if (e.getCause() instanceof SandboxException own) {
                throw own;
            }
            if (e.getCause() instanceof IllegalArgumentException bad) {
                throw bad;
            }
            throw e;
        }
    }
}
