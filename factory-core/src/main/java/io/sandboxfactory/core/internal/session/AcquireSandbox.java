package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.SandboxStartHookException;
import jakarta.inject.Inject;

import java.util.Objects;

/**
 * Pipeline step: acquire the sandbox. The provider's {@code start()} finds or creates the physical
 * sandbox; its start hooks then run, the factory's {@link SessionStartHook} first, which hands the
 * start to the pipeline's workspace steps, and the host's own after it. A failure of the factory's
 * steps is reported as their own exception — a {@code SetupCommandException} keeps its exact
 * message instead of being wrapped in {@code Sandbox '<id>' onStart hook failed: ...}.
 */
final class AcquireSandbox {

    private final GenerationCheck generations;

    @Inject
    AcquireSandbox(GenerationCheck generations) {
        this.generations = Objects.requireNonNull(generations, "generations");
    }

    /**
     * Starts {@code entry}'s sandbox unless the session was retired since its instance was made (a
     * provider makes the physical sandbox before any hook runs, so the hook's own check would come
     * too late). The caller holds the session's lease.
     */
    void acquire(SessionEntry entry) {
        generations.require(entry);
        start(entry.sandbox());
    }

    /** Starts {@code sandbox} as it is: joins a start in flight, returns at once on a running one. */
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
