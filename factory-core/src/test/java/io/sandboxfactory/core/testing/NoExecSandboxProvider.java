package io.sandboxfactory.core.testing;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxProvider;

import java.util.Set;

/** Test provider {@code test-noexec}: declares no EXEC, so a factory selecting it must refuse to build. */
public final class NoExecSandboxProvider implements SandboxProvider<NoExecSandboxProvider.Config> {

    /** No keys. */
    public record Config() {
    }

    @Override
    public String name() {
        return "test-noexec";
    }

    @Override
    public Class<Config> configType() {
        return Config.class;
    }

    @Override
    public FactorySandbox open(Config config, ProviderContext context) {
        return new FactorySandbox() {
            @Override
            public String provider() {
                return "test-noexec";
            }

            @Override
            public MastraSandbox<?> create(FactorySandboxContext ctx) {
                return new MemorySandbox(ctx.sessionId(), "test-noexec", "noexec");
            }

            @Override
            public Set<SandboxCapability> capabilities() {
                return Set.of(SandboxCapability.FILES_SURVIVE_STOP);
            }
        };
    }
}
