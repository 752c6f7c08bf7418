package io.sandboxfactory.core.internal.session;

import io.sandboxfactory.api.FactorySandbox;

import java.util.Objects;

/**
 * The opened provider the factory's sessions run on.
 *
 * @param name the name it was selected by ({@code SandboxProvider.name()}), recorded with each session
 * @param sandboxes the opened provider
 */
public record SessionProvider(String name, FactorySandbox sandboxes) {

    public SessionProvider {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(sandboxes, "sandboxes");
    }
}
