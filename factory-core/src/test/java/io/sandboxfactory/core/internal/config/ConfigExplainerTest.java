package io.sandboxfactory.core.internal.config;

import io.sandboxfactory.core.DiscoveredProvider;
import io.sandboxfactory.core.internal.discovery.DiscoveredProviders;
import io.sandboxfactory.core.testing.MemoryConfig;
import io.sandboxfactory.core.testing.MemorySandboxProvider;
import io.sandboxfactory.provider.local.LocalProviderConfig;
import io.sandboxfactory.provider.local.LocalSandboxProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import io.sandboxfactory.core.config.ConfigValue;
import io.sandboxfactory.core.config.EffectiveConfig;
import io.sandboxfactory.core.config.FactoryConfig;

/** Every effective value with the source that set it; secrets masked, variable names shown. */
class ConfigExplainerTest {

    @TempDir
    Path tmp;

    private static DiscoveredProviders providers() {
        return new DiscoveredProviders(List.of(
                new DiscoveredProvider("local", new LocalSandboxProvider(), LocalSandboxProvider.class, LocalProviderConfig.class, "test", ""),
                new DiscoveredProvider("test-memory", new MemorySandboxProvider("test-memory"), MemorySandboxProvider.class,
                        MemoryConfig.class, "test", "")));
    }

    private Map<String, ConfigValue> explain(Path file, Map<String, String> env, ConfigOverrides overrides) throws IOException {
        Path home = Files.createDirectories(tmp.resolve("home"));
        ResolvedConfig resolved = new ConfigResolver(home, "tester").resolveFile(new FactoryConfigLoader(home), file, env, overrides, providers());
        EffectiveConfig effective = new ConfigExplainer().explain(resolved, FactoryConfig.defaults(), Optional.of(file), env, overrides,
                providers(), key -> "flag for " + key);
        Map<String, ConfigValue> byKey = new java.util.LinkedHashMap<>();
        effective.values().forEach(v -> byKey.put(v.key(), v));
        return byKey;
    }

    @Test
    void eachValueNamesItsSourceDefaultFileEnvironmentOrFlag() throws IOException {
        Path file = Files.writeString(tmp.resolve("factory.yaml"), """
                owner: team-a
                timeouts:
                  setup: 20m
                store:
                  type: sqlite
                  passwordEnv: PG_SECRET_VAR
                providers:
                  local:
                    passEnv: [LANG]
                    env: {CI: "true", GH_TOKEN: ghp_verysecret, DB_PASSWORD: hunter2}
                """);
        Map<String, ConfigValue> values = explain(file, Map.of("FACTORY_TIMEOUTS_COMMAND", "5m", "FACTORY_PROVIDERS_LOCAL_INHERIT_ENVIRONMENT", "true",
                        "FACTORY_TIMEOUTS_NETWORK", "1m", "FACTORY_CACHE_ENABLED", "true", "FACTORY_TEMPLATES_AUTO_BUILD", "true"),
                new ConfigOverrides(Optional.of("local"), Optional.empty(), Optional.empty()));

        String fromFile = "file " + file.toAbsolutePath().normalize();
        assertThat(values.get("provider")).isEqualTo(new ConfigValue("provider", "local", "flag for provider"));
        assertThat(values.get("owner")).isEqualTo(new ConfigValue("owner", "team-a", fromFile));
        assertThat(values.get("timeouts.setup").source()).isEqualTo(fromFile);
        assertThat(values.get("timeouts.command").source()).isEqualTo("environment FACTORY_TIMEOUTS_COMMAND");
        assertThat(values.get("timeouts.network")).as("as written, not PT1M")
                .isEqualTo(new ConfigValue("timeouts.network", "1m", "environment FACTORY_TIMEOUTS_NETWORK"));
        assertThat(values.get("cache.enabled").source()).isEqualTo("environment FACTORY_CACHE_ENABLED");
        assertThat(values.get("templates.autoBuild").source()).isEqualTo("environment FACTORY_TEMPLATES_AUTO_BUILD");
        assertThat(values.get("store.leaseTtl").source()).isEqualTo("default");
        assertThat(values.get("stateDir")).isEqualTo(new ConfigValue("stateDir", tmp.resolve("home/.sandbox-factory").toString(), "default"));
        assertThat(values.get("providers.local.inheritEnvironment"))
                .isEqualTo(new ConfigValue("providers.local.inheritEnvironment", true, "environment FACTORY_PROVIDERS_LOCAL_INHERIT_ENVIRONMENT"));
        assertThat(values.get("providers.local.passEnv")).isEqualTo(new ConfigValue("providers.local.passEnv", List.of("LANG"), fromFile));
        assertThat(values.get("providers.local.env.CI")).isEqualTo(new ConfigValue("providers.local.env.CI", "true", fromFile));
    }

    @Test
    void secretsAreMaskedAndAPasswordVariableShowsItsName() throws IOException {
        Path file = Files.writeString(tmp.resolve("factory.yaml"), """
                store:
                  passwordEnv: PG_SECRET_VAR
                providers:
                  local:
                    env: {GH_TOKEN: ghp_verysecret, DB_PASSWORD: hunter2}
                """);
        Map<String, ConfigValue> values = explain(file, Map.of("PG_SECRET_VAR", "the-real-password"), ConfigOverrides.none());

        assertThat(values.get("store.passwordEnv").value()).isEqualTo("PG_SECRET_VAR");
        assertThat(values.get("providers.local.env.GH_TOKEN").value()).isEqualTo(ConfigValue.MASKED);
        assertThat(values.get("providers.local.env.DB_PASSWORD").value()).isEqualTo(ConfigValue.MASKED);
        assertThat(values.toString()).doesNotContain("ghp_verysecret").doesNotContain("hunter2").doesNotContain("the-real-password");
    }

    @Test
    void anAbsentProviderSectionShowsTheProvidersDefaults() throws IOException {
        Path file = Files.writeString(tmp.resolve("factory.yaml"), "provider: test-memory\n");
        Map<String, ConfigValue> values = explain(file, Map.of(), ConfigOverrides.none());
        assertThat(values.get("provider").source()).isEqualTo("file " + file.toAbsolutePath().normalize());
        assertThat(values.get("providers.test-memory.slots")).isEqualTo(new ConfigValue("providers.test-memory.slots", 1, "default"));
        assertThat(values.get("providers.test-memory.networkMode").value()).isEqualTo("none");
    }

    @Test
    void secretKeysAreRecognisedByName() {
        assertThat(ConfigExplainer.isSecret("providers.x.env.GITHUB_TOKEN")).isTrue();
        assertThat(ConfigExplainer.isSecret("providers.x.apiKey")).isTrue();
        assertThat(ConfigExplainer.isSecret("store.password")).isTrue();
        assertThat(ConfigExplainer.isSecret("store.passwordEnv")).isFalse();
        assertThat(ConfigExplainer.isSecret("providers.local.passEnv")).isFalse();
        assertThat(ConfigExplainer.isSecret("providers.docker.networkMode")).isFalse();
    }
}
