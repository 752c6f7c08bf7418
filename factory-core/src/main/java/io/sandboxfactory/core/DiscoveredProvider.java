package io.sandboxfactory.core;

import io.sandboxfactory.api.SandboxProvider;

import java.util.Objects;

/**
 * One provider found on the class path: its name, the instance ServiceLoader made, its class,
 * the config type its {@code providers.<name>} section binds to, where its class was loaded from
 * (the jar or directory, from the class's {@link java.security.CodeSource}) and its description.
 */
public record DiscoveredProvider(
        String name,
        SandboxProvider<?> provider,
        Class<?> providerClass,
        Class<?> configType,
        String location,
        String description) {

    public DiscoveredProvider {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(providerClass, "providerClass");
        Objects.requireNonNull(configType, "configType");
        Objects.requireNonNull(location, "location");
        description = Objects.requireNonNullElse(description, "");
    }

    /** {@code <class> (from <location>)}, how error messages name a provider. */
    public String origin() {
        return providerClass.getName() + " (from " + location + ")";
    }
}
