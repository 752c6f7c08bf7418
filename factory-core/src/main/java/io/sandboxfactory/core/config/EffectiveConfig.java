package io.sandboxfactory.core.config;

import java.util.List;

/**
 * The configuration a factory would run with, every value with its source; secrets are masked.
 *
 * @param origin where the settings came from (the file, or a description)
 * @param values every key, in the order of the config's sections
 */
public record EffectiveConfig(String origin, List<ConfigValue> values) {

    public EffectiveConfig {
        values = List.copyOf(values);
    }
}
