package io.sandboxfactory.core.internal.config;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where the values of the provider sections came from, so that a value rejected later (by the
 * provider's {@code open}) is still reported with its file or environment variable.
 *
 * @param byKey the phrase for each set key ({@code providers.docker.memory} → {@code in /etc/factory.yaml}
 *     or {@code from environment variable FACTORY_PROVIDERS_DOCKER_MEMORY})
 * @param unset the phrase for a key that was not set, so holds its default
 */
public record ConfigOrigins(Map<String, String> byKey, String unset) {

    public ConfigOrigins {
        byKey = Map.copyOf(byKey);
        Objects.requireNonNull(unset, "unset");
    }

    /** Nothing known: every key reads as coming from {@code origin}. */
    static ConfigOrigins all(String origin) {
        return new ConfigOrigins(Map.of(), origin);
    }

    /**
     * The phrase of {@code key}: that of the longest set key it lies within ({@code env.FOO} within
     * {@code env}); for a section, those of the keys set in it; else {@link #unset()}.
     */
    public String where(String key) {
        String best = null;
        for (String set : byKey.keySet()) {
            if (ConfigKeys.within(key, set) || key.startsWith(set + "[")) {
                if (best == null || set.length() > best.length()) {
                    best = set;
                }
            }
        }
        if (best != null) {
            return byKey.get(best);
        }
        List<String> within = byKey.entrySet().stream().filter(e -> ConfigKeys.within(e.getKey(), key)).map(Map.Entry::getValue)
                .distinct().toList();
        return within.isEmpty() ? unset : String.join(" and ", within);
    }
}
