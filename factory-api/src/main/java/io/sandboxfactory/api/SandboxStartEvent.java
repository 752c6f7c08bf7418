package io.sandboxfactory.api;

import java.util.Objects;

/**
 * What a start hook receives.
 *
 * @param sandbox the sandbox being started
 * @param outcome whether the physical sandbox was created or reconnected
 * @param exec runs commands in the sandbox during the hook; unlike calls from other threads it does
 *     not wait for the start to finish (which would deadlock)
 * @since 0.1.0
 */
public record SandboxStartEvent(ExecutableSandbox sandbox, StartOutcome outcome, CommandExecutor exec) {

    public SandboxStartEvent {
        Objects.requireNonNull(sandbox, "sandbox");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(exec, "exec");
    }
}
