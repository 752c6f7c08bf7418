package io.sandboxfactory.core.testing;

import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.ProviderContext;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.SandboxProvider;

import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/** Test provider {@code test-memory} (registered in the test services file); other names for resolver tests. */
public final class MemorySandboxProvider implements SandboxProvider<MemoryConfig> {

    private final String name;

    public MemorySandboxProvider() {
        this("test-memory");
    }

    public MemorySandboxProvider(String name) {
        this.name = name;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public Class<MemoryConfig> configType() {
        return MemoryConfig.class;
    }

    @Override
    public FactorySandbox open(MemoryConfig config, ProviderContext context) {
        // A host that wants to know how often the factory opened this provider registers a counter.
        context.lookup(AtomicInteger.class).ifPresent(AtomicInteger::incrementAndGet);
        if (config.failOpen()) {
            throw new IllegalStateException("the memory pool is unavailable");
        }
        return new Factory(name, config, context);
    }

    @Override
    public String description() {
        return "In-memory sandboxes for tests.";
    }

    /** The opened provider; exposes what it was opened with. */
    public static final class Factory implements FactorySandbox {
        private final String name;
        private final MemoryConfig config;
        private final ProviderContext context;
        private final AtomicBoolean closed = new AtomicBoolean();

        Factory(String name, MemoryConfig config, ProviderContext context) {
            this.name = name;
            this.config = config;
            this.context = context;
        }

        public MemoryConfig config() {
            return config;
        }

        public ProviderContext context() {
            return context;
        }

        public boolean isClosed() {
            return closed.get();
        }

        @Override
        public MastraSandbox<?> create(FactorySandboxContext ctx) {
            return new MemorySandbox(ctx.sessionId(), name, config.label());
        }

        @Override
        public Set<SandboxCapability> capabilities() {
            return Set.of();
        }

        @Override
        public void close() {
            closed.set(true);
        }
    }
}
