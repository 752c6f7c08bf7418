package io.sandboxfactory.core.internal.wiring;

import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.internal.config.ConfigOverrides;
import io.sandboxfactory.core.internal.config.ResolvedConfig;
import io.sandboxfactory.core.internal.discovery.DiscoveredProviders;

import java.util.Map;

/**
 * What the config was resolved from and to.
 *
 * @param discovered the providers it was resolved against
 * @param base the settings given in code, or the defaults when a file was read
 * @param overrides what the builder set
 * @param environment the host environment it read {@code FACTORY_*} from
 * @param resolved the effective configuration
 */
public record ConfigResolution(DiscoveredProviders discovered, FactoryConfig base, ConfigOverrides overrides,
                               Map<String, String> environment, ResolvedConfig resolved) {
}
