package io.sandboxfactory.core.config;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sandboxfactory.core.discovery.DiscoveredProvider;

import java.util.List;

/** Binds a {@code providers.<name>} tree to that provider's config type, strictly. */
final class ProviderSectionBinder {

    private final ObjectMapper mapper;

    ProviderSectionBinder(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * The config object for {@code provider} from {@code section}; an unknown key or bad value fails
     * naming {@code providers.<name>.<key>} and {@code where} the value came from.
     */
    Object bind(DiscoveredProvider provider, ObjectNode section, String where) {
        try {
            Object config = mapper.treeToValue(section, provider.configType());
            if (config == null) {
                throw ConfigErrors.invalid("Configuration section 'providers." + provider.name() + "' " + where
                        + " bound to nothing; " + provider.configType().getName() + " must accept an empty section.");
            }
            return config;
        } catch (JsonProcessingException e) {
            throw ConfigErrors.describe(e, "providers." + provider.name(), where);
        } catch (IllegalArgumentException e) {
            throw ConfigErrors.invalid("Invalid configuration at 'providers." + provider.name() + "' " + where + ": "
                    + e.getMessage(), e);
        }
    }

    /** The keys the section of {@code provider} accepts, as Jackson sees the config type. */
    List<String> keys(DiscoveredProvider provider) {
        return mapper.getDeserializationConfig()
                .introspect(mapper.constructType(provider.configType()))
                .findProperties()
                .stream()
                .filter(BeanPropertyDefinition::couldDeserialize)
                .map(BeanPropertyDefinition::getName)
                .sorted()
                .toList();
    }
}
