package io.sandboxfactory.core.internal.config;

import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import io.sandboxfactory.core.config.CacheConfig;
import io.sandboxfactory.core.config.ConfigView;
import io.sandboxfactory.core.config.EgressConfig;
import io.sandboxfactory.core.config.EnvironmentConfig;
import io.sandboxfactory.core.config.GitConfig;
import io.sandboxfactory.core.config.JournalConfig;
import io.sandboxfactory.core.config.Lifecycle;
import io.sandboxfactory.core.config.RepositoryDefaults;
import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.core.config.TemplatesConfig;
import io.sandboxfactory.core.config.Timeouts;

/**
 * The effective configuration of one factory, after the file, the environment and the builder:
 * every value is set and valid, and every provider section present (plus the selected provider's,
 * bound from {@code {}} when absent) is bound to its provider's config type.
 *
 * @param provider the selected provider's name
 * @param stateDirectory absolute state directory
 * @param owner who owns the sandboxes
 * @param repository repository defaults
 * @param timeouts timeouts
 * @param lifecycle idle policies
 * @param environments multi-repository environments by name
 * @param providerConfigs bound config objects by provider name; always holds {@link #provider()}
 * @param origin where the settings came from (a file path, or a description)
 * @param store which session store, and how to reach it
 * @param templates template use
 * @param cache the host git object cache
 * @param journal how much command journal a session keeps
 * @param providerOrigins where each provider key's value came from, to name it when {@code open} rejects it
 * @param git git in the sandboxes; its identity has both parts set (configured, the host's, or the built-in default)
 * @param egress what network sessions may reach
 */
public record ResolvedConfig(
        String provider,
        Path stateDirectory,
        String owner,
        RepositoryDefaults repository,
        Timeouts timeouts,
        Lifecycle lifecycle,
        Map<String, EnvironmentConfig> environments,
        Map<String, Object> providerConfigs,
        String origin,
        StoreConfig store,
        TemplatesConfig templates,
        CacheConfig cache,
        JournalConfig journal,
        ConfigOrigins providerOrigins,
        GitConfig git,
        EgressConfig egress) implements ConfigView {

    public ResolvedConfig {
        git = Objects.requireNonNullElse(git, GitConfig.of(GitConfig.DEFAULT_NAME, GitConfig.DEFAULT_EMAIL));
        if (git.user().name() == null || git.user().email() == null) {
            throw new IllegalArgumentException("A resolved git identity has a name and an email: " + git.user());
        }
        egress = Objects.requireNonNullElse(egress, EgressConfig.defaults());
        providerOrigins = Objects.requireNonNullElse(providerOrigins, ConfigOrigins.all("in " + origin));
        journal = Objects.requireNonNullElse(journal, JournalConfig.defaults());
        cache = Objects.requireNonNullElse(cache, CacheConfig.defaults());
        templates = Objects.requireNonNullElse(templates, TemplatesConfig.defaults());
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(stateDirectory, "stateDirectory");
        Objects.requireNonNull(owner, "owner");
        Objects.requireNonNull(repository, "repository");
        Objects.requireNonNull(timeouts, "timeouts");
        Objects.requireNonNull(lifecycle, "lifecycle");
        environments = Map.copyOf(environments);
        providerConfigs = Map.copyOf(providerConfigs);
        Objects.requireNonNull(origin, "origin");
        if (!providerConfigs.containsKey(provider)) {
            throw new IllegalArgumentException("No bound configuration for the selected provider '" + provider + "'.");
        }
    }

    /**
     * Shows provider config names only: a bound provider config may hold secrets (a provider's
     * {@code env}), and third-party config records render every field.
     */
    @Override
    public String toString() {
        return "ResolvedConfig[provider=" + provider + ", stateDirectory=" + stateDirectory + ", owner=" + owner + ", repository="
                + repository + ", timeouts=" + timeouts + ", lifecycle=" + lifecycle + ", providerConfigs=" + providerConfigs.keySet() + ", origin=" + origin + ", store=" + store + "]";
    }

    /** The selected provider's bound config object. */
    public Object providerConfig() {
        return providerConfigs.get(provider);
    }

    @Override
    public <C> Optional<C> providerConfig(String name, Class<C> type) {
        return Optional.ofNullable(providerConfigs.get(name)).map(type::cast);
    }
}
