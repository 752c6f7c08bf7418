package io.sandboxfactory.core.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import io.sandboxfactory.core.internal.config.ConfigResolver;

/**
 * The settings of a config file (or of a host that builds them in code), before environment and
 * builder overrides and before provider sections are bound: see {@link ConfigResolver}.
 *
 * <p>Provider sections stay plain values here (strings, numbers, booleans, lists and maps, as a
 * file holds them) because their types are only known once providers are discovered; the resolver
 * binds each to its provider's config record. They are deep, unmodifiable copies, so a {@code
 * FactoryConfig} never changes.
 *
 * @param provider the selected provider's name ({@code provider:})
 * @param stateDir the state directory, absolute when read from a file
 * @param owner who owns the sandboxes (labels, names)
 * @param repository repository defaults
 * @param timeouts timeouts
 * @param lifecycle idle policies
 * @param environments multi-repository environments by name ({@code --environment NAME})
 * @param providers the {@code providers.<name>} sections, by provider name
 * @param store which session store ({@code store:})
 * @param templates template use ({@code templates:})
 * @param cache the host git object cache ({@code cache:})
 * @param journal how much command journal a session keeps ({@code journal:})
 * @param git git inside the sandboxes ({@code git:}): the identity of their commits
 * @param egress what network sessions may reach ({@code egress:})
 */
public record FactoryConfig(
        Optional<String> provider,
        Optional<Path> stateDir,
        Optional<String> owner,
        RepositoryDefaults repository,
        Timeouts timeouts,
        Lifecycle lifecycle,
        Map<String, EnvironmentConfig> environments,
        Map<String, Map<String, Object>> providers,
        StoreConfig store,
        TemplatesConfig templates,
        CacheConfig cache,
        JournalConfig journal,
        GitConfig git,
        EgressConfig egress) {

    public FactoryConfig {
        git = Objects.requireNonNullElse(git, GitConfig.defaults());
        egress = Objects.requireNonNullElse(egress, EgressConfig.defaults());
        journal = Objects.requireNonNullElse(journal, JournalConfig.defaults());
        cache = Objects.requireNonNullElse(cache, CacheConfig.defaults());
        templates = Objects.requireNonNullElse(templates, TemplatesConfig.defaults());
        store = Objects.requireNonNullElse(store, StoreConfig.defaults());
        provider = Objects.requireNonNullElse(provider, Optional.empty());
        stateDir = Objects.requireNonNullElse(stateDir, Optional.empty());
        owner = Objects.requireNonNullElse(owner, Optional.empty());
        repository = Objects.requireNonNullElse(repository, RepositoryDefaults.defaults());
        timeouts = Objects.requireNonNullElse(timeouts, Timeouts.defaults());
        lifecycle = Objects.requireNonNullElse(lifecycle, Lifecycle.off());
        environments = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNullElse(environments, Map.of())));
        providers = copy(Objects.requireNonNullElse(providers, Map.of()));
    }

    private static Map<String, Map<String, Object>> copy(Map<String, ? extends Map<String, ?>> sections) {
        Map<String, Map<String, Object>> copy = new TreeMap<>();
        sections.forEach((name, section) -> copy.put(Objects.requireNonNull(name, "provider section name"),
                plainMap(Objects.requireNonNull(section, () -> "providers." + name))));
        return Collections.unmodifiableMap(copy);
    }

    private static Map<String, Object> plainMap(Map<?, ?> map) {
        Map<String, Object> copy = new LinkedHashMap<>();
        map.forEach((key, value) -> copy.put(String.valueOf(key), plain(value)));
        return Collections.unmodifiableMap(copy);
    }

    private static Object plain(Object value) {
        if (value instanceof Map<?, ?> map) {
            return plainMap(map);
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(item -> copy.add(plain(item)));
            return Collections.unmodifiableList(copy);
        }
        return value;
    }

    /** Shows provider section names only: a section may hold secrets (a provider's {@code env}). */
    @Override
    public String toString() {
        return "FactoryConfig[provider=" + provider.orElse("<default>") + ", stateDir=" + stateDir.map(Path::toString).orElse("<default>")
                + ", owner=" + owner.orElse("<default>") + ", repository=" + repository + ", timeouts=" + timeouts
                + ", lifecycle=" + lifecycle + ", store=" + store + ", templates=" + templates + ", cache=" + cache + ", journal=" + journal + ", git=" + git + ", egress=" + egress + ", environments=" + environments.keySet() + ", providerSections=" + providers.keySet() + "]";
    }

    /** No settings at all: every default applies. */
    public static FactoryConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link FactoryConfig} in code, for hosts that do not use a file. */
    public static final class Builder {
        private String provider;
        private Path stateDir;
        private String owner;
        private RepositoryDefaults repository;
        private Timeouts timeouts;
        private Lifecycle lifecycle;
        private StoreConfig store;
        private TemplatesConfig templates;
        private CacheConfig cache;
        private GitConfig git;
        private EgressConfig egress;
        private final Map<String, EnvironmentConfig> environments = new LinkedHashMap<>();
        private final Map<String, Map<String, ?>> providers = new LinkedHashMap<>();

        private Builder() {
        }

        public Builder provider(String provider) {
            this.provider = provider;
            return this;
        }

        public Builder stateDir(Path stateDir) {
            this.stateDir = stateDir;
            return this;
        }

        public Builder owner(String owner) {
            this.owner = owner;
            return this;
        }

        public Builder repository(RepositoryDefaults repository) {
            this.repository = repository;
            return this;
        }

        public Builder timeouts(Timeouts timeouts) {
            this.timeouts = timeouts;
            return this;
        }

        public Builder lifecycle(Lifecycle lifecycle) {
            this.lifecycle = lifecycle;
            return this;
        }

        public Builder cache(CacheConfig cache) {
            this.cache = cache;
            return this;
        }

        /** The {@code git:} section: the identity of commits made in sessions. */
        public Builder git(GitConfig git) {
            this.git = git;
            return this;
        }

        /** The {@code egress:} section: what network sessions may reach. */
        public Builder egress(EgressConfig egress) {
            this.egress = egress;
            return this;
        }

        public Builder templates(TemplatesConfig templates) {
            this.templates = templates;
            return this;
        }

        public Builder store(StoreConfig store) {
            this.store = store;
            return this;
        }

        public Builder environment(String name, EnvironmentConfig environment) {
            this.environments.put(name, environment);
            return this;
        }

        /**
         * Sets the {@code providers.<name>} section from plain values (strings, numbers, booleans,
         * lists, maps), exactly as the same keys would appear in a file.
         */
        public Builder providerSection(String name, Map<String, ?> values) {
            providers.put(name, values);
            return this;
        }

        public FactoryConfig build() {
            return new FactoryConfig(Optional.ofNullable(provider), Optional.ofNullable(stateDir), Optional.ofNullable(owner),
                    repository, timeouts, lifecycle, environments, copy(providers), store, templates, cache, null, git, egress);
        }
    }
}
