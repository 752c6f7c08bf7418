package io.sandboxfactory.api;

/**
 * Runs on every start of a sandbox, after the physical sandbox was acquired and before the
 * sandbox counts as running. Hooks chain: {@link MastraSandbox#setOnStart} wraps the current hook.
 * Throwing fails the start (see {@link SandboxStartHookException}).
 *
 * @since 0.1.0
 */
@FunctionalInterface
public interface SandboxStartHook {

    /** The hook that does nothing; the initial hook of every sandbox. */
    SandboxStartHook NONE = event -> { };

    void onStart(SandboxStartEvent event) throws Exception;
}
