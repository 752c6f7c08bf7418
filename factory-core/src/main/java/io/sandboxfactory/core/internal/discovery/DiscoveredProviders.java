package io.sandboxfactory.core.internal.discovery;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.FactoryConfigurationException;
import io.sandboxfactory.core.DiscoveredProvider;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The providers one factory discovered, sorted by name, with unique and valid names (checked by
 * {@link ProviderDiscovery}). Immutable.
 */
public final class DiscoveredProviders {

    private final List<DiscoveredProvider> all;
    private final Map<String, DiscoveredProvider> byName;

    /** Wraps providers with unique names; a duplicate is an {@link IllegalArgumentException} naming both classes. */
    public DiscoveredProviders(List<DiscoveredProvider> providers) {
        this.all = providers.stream().sorted(Comparator.comparing(DiscoveredProvider::name)).toList();
        this.byName = all.stream().collect(Collectors.toUnmodifiableMap(DiscoveredProvider::name, Function.identity(),
                (a, b) -> {
                    throw new InvalidInputException(StandardErrorCode.PROVIDER_DISCOVERY_FAILED, ProviderDiscovery.duplicateMessage(a, b));
                }));
    }

    /** Every discovered provider, sorted by name. */
    public List<DiscoveredProvider> all() {
        return all;
    }

    /** The sorted provider names. */
    public List<String> names() {
        return all.stream().map(DiscoveredProvider::name).toList();
    }

    public Optional<DiscoveredProvider> find(String name) {
        return Optional.ofNullable(byName.get(name));
    }

    /** The provider called {@code name}, or {@code Unknown sandbox provider 'x'; available: [a, b]}. */
    public DiscoveredProvider require(String name) {
        DiscoveredProvider found = byName.get(name);
        if (found == null) {
            throw new FactoryConfigurationException(StandardErrorCode.UNKNOWN_PROVIDER,
                    "Unknown sandbox provider '" + name + "'; available: " + names());
        }
        return found;
    }
}
