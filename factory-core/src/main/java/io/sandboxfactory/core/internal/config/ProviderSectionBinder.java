package io.sandboxfactory.core.internal.config;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.BeanPropertyDefinition;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sandboxfactory.core.DiscoveredProvider;

import java.util.List;
import java.util.function.Function;

/** Binds a {@code providers.<name>} tree to that provider's config type, strictly, reporting every error in it. */
final class ProviderSectionBinder {

    private final ObjectMapper mapper;

    ProviderSectionBinder(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /**
     * The config object for {@code provider} from {@code section}; every unknown key, bad value and
     * value the config type rejects fails at once, each naming {@code providers.<name>.<key>} and
     * where it came from ({@code whereOf} of that full key).
     */
    Object bind(DiscoveredProvider provider, ObjectNode section, Function<String, String> whereOf) {
        String prefix = "providers." + provider.name();
        Object config = new SectionBinder(mapper).bind(section, mapper.constructType(provider.configType()), prefix, whereOf);
        if (config == null) {
            throw ConfigErrors.invalid("Configuration section '" + prefix + "' " + whereOf.apply(prefix) + " bound to nothing; "
                    + provider.configType().getName() + " must accept an empty section.");
        }
        return config;
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
