package io.sandboxfactory.api;

/**
 * Runs before a sandbox is stopped or destroyed ({@link MastraSandbox#setOnStop}, {@link
 * MastraSandbox#setOnDestroy}). A failure is reported and does not prevent the stop or destroy.
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface SandboxLifecycleHook {

    void run(ExecutableSandbox sandbox) throws Exception;
}
