package io.sandboxfactory.api.support;

import io.sandboxfactory.api.SandboxProvider;

import java.util.Objects;

/**
 * A {@link SandboxProvider} whose name, config type and description are fixed values given once,
 * to the constructor; a provider then writes only {@link #open}. Its subclass still needs the
 * public no-argument constructor {@link java.util.ServiceLoader} calls.
 *
 * @param <C> the provider's config type
 * @since 0.1.0
 */
public abstract class AbstractSandboxProvider<C> implements SandboxProvider<C> {

    private final String name;
    private final Class<C> configType;
    private final String description;

    /**
     * @param name what {@link #name()} returns: the one place the provider's name is declared
     * @param configType what the {@code providers.<name>} section binds to
     * @param description one line for listings
     */
    protected AbstractSandboxProvider(String name, Class<C> configType, String description) {
        this.name = Objects.requireNonNull(name, "name");
        this.configType = Objects.requireNonNull(configType, "configType");
        this.description = Objects.requireNonNull(description, "description");
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final Class<C> configType() {
        return configType;
    }

    @Override
    public final String description() {
        return description;
    }
}
