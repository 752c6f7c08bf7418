package io.sandboxfactory.cli.testing;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.support.AbstractSandboxProvider;
import io.sandboxfactory.core.testing.ShellSandboxes;

/**
 * Test provider {@code test-shell}: factory-core's {@link ShellSandboxes} (real {@code /bin/sh} in a
 * directory per session under the provider's state directory), which offer no interactive attach.
 */
public final class ShellSandboxProvider extends AbstractSandboxProvider<ShellSandboxProvider.Config> {

    /** No settings. */
    public record Config() {
    }

    public ShellSandboxProvider() {
        super("test-shell", Config.class, "Shell sandboxes without an attach, for tests.");
    }

    @Override
    public FactorySandbox open(Config config, ProviderContext context) {
        return new ShellSandboxes(context.stateDirectory().resolve("test-shell"));
    }
}
