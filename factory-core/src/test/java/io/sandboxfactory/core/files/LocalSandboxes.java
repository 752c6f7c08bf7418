package io.sandboxfactory.core.files;

import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.testing.TestProviderContext;
import io.sandboxfactory.provider.local.LocalFactorySandbox;
import io.sandboxfactory.provider.local.LocalProviderConfig;
import io.sandboxfactory.provider.local.LocalSandbox;
import io.sandboxfactory.provider.local.LocalSandboxProvider;

import java.nio.file.Path;

/** Real local-provider sandboxes for the filesystem tests. */
final class LocalSandboxes {

    private LocalSandboxes() {
    }

    static LocalFactorySandbox provider(Path state) {
        return (LocalFactorySandbox) new LocalSandboxProvider()
                .open(LocalProviderConfig.withRoot(state.resolve("sessions").toString()), new TestProviderContext(state, "test"));
    }

    /** A started sandbox for {@code sessionId} under {@code state}. */
    static LocalSandbox started(Path state, String sessionId) {
        LocalSandbox sandbox = (LocalSandbox) provider(state).create(FactorySandboxContext.of(sessionId));
        sandbox.start();
        return sandbox;
    }
}
