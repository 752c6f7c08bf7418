package io.sandboxfactory.core.config;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Map;

/** The shape of a config file as Jackson binds it; provider sections stay trees until providers are known. */
record ConfigDocument(
        String provider,
        String stateDir,
        String owner,
        RepositoryDefaults repository,
        Timeouts timeouts,
        Lifecycle lifecycle,
        Map<String, EnvironmentConfig> environments,
        Map<String, JsonNode> providers,
        StoreConfig store,
        TemplatesConfig templates,
        CacheConfig cache,
        JournalConfig journal) {
}
