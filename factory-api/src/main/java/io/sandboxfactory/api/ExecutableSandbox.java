package io.sandboxfactory.api;

import io.sandboxfactory.api.support.Sandboxes;

/**
 * A sandbox that can run commands. The framework needs this to run git and filesystem operations
 * in a session; obtain one from a {@link WorkspaceSandbox} with {@link Sandboxes#requireExec}.
 *
 * <p>Guarantees: {@code executeCommand} starts the sandbox lazily when it is not running, and
 * waits for an in-flight start (including its start hooks) before it runs anything.
 */
public interface ExecutableSandbox extends WorkspaceSandbox, CommandExecutor {
}
