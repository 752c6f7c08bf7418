package io.sandboxfactory.core.internal.config;

import io.sandboxfactory.core.FactoryConfigurationException;
import io.sandboxfactory.core.DiscoveredProvider;
import io.sandboxfactory.core.internal.discovery.DiscoveredProviders;
import io.sandboxfactory.core.testing.MemoryConfig;
import io.sandboxfactory.core.testing.MemorySandboxProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.config.RepositoryDefaults;
import io.sandboxfactory.core.config.StoreConfig;
import io.sandboxfactory.core.config.Timeouts;

class ConfigTest {

    @Test
    void aHyphenInAProviderOrKeyNameBecomesAnUnderscoreInItsEnvironmentVariable() {
        // What the provider guide promises authors: my-prov's key fooBar is FACTORY_PROVIDERS_MY_PROV_FOO_BAR.
        assertThat(EnvironmentOverrides.envForm("my-prov")).isEqualTo("MY_PROV");
        assertThat(EnvironmentOverrides.envForm("fooBar")).isEqualTo("FOO_BAR");
        assertThat(EnvironmentOverrides.envForm("retries2Max")).isEqualTo("RETRIES2_MAX");
    }


    @TempDir
    Path tmp;

    private Path home() throws IOException {
        return Files.createDirectories(tmp.resolve("home"));
    }

    private static DiscoveredProvider memory(String name) {
        MemorySandboxProvider provider = new MemorySandboxProvider(name);
        return new DiscoveredProvider(name, provider, MemorySandboxProvider.class, MemoryConfig.class, "test", "");
    }

    /** Providers named like the real ones plus the test one, so the default ({@code local}) resolves. */
    private static DiscoveredProviders providers() {
        return new DiscoveredProviders(List.of(memory("local"), memory("docker"), memory("custom"), memory("test-memory")));
    }

    private FactoryConfig load(Path file) throws IOException {
        return new FactoryConfigLoader(home()).load(file);
    }

    private ResolvedConfig resolve(FactoryConfig config, Map<String, String> env, ConfigOverrides overrides) throws IOException {
        return new ConfigResolver(home(), "tester").resolve(config, "the test", env, overrides, providers());
    }

    private ResolvedConfig resolveFile(Path file, Map<String, String> env) throws IOException {
        return new ConfigResolver(home(), "tester").resolve(load(file), file.toString(), env, ConfigOverrides.none(), providers());
    }

    private Path write(String name, String content) throws IOException {
        return Files.writeString(tmp.resolve(name), content);
    }

    @Test
    void yamlAndJsonWithTheSameSettingsBindToEqualObjects() throws IOException {
        Path yaml = write("factory.yaml", """
                provider: test-memory
                stateDir: state
                owner: team-a
                repository:
                  cloneUrlTemplate: "file:///srv/git/{owner}/{name}.git"
                  defaultBaseBranch: develop
                  setup: ["npm ci", "make build"]
                  teardown: ["make clean"]
                timeouts:
                  setup: PT20M
                  command: 30s
                providers:
                  test-memory:
                    label: lab
                    networkMode: host
                    slots: 4
                    idle: 90s
                    verbose: true
                    tags: [a, b]
                """);
        Path json = write("factory.json", """
                {
                  "provider": "test-memory",
                  "stateDir": "state",
                  "owner": "team-a",
                  "repository": {
                    "cloneUrlTemplate": "file:///srv/git/{owner}/{name}.git",
                    "defaultBaseBranch": "develop",
                    "setup": ["npm ci", "make build"],
                    "teardown": ["make clean"]
                  },
                  "timeouts": {"setup": "20m", "command": "PT30S"},
                  "providers": {
                    "test-memory": {"label": "lab", "networkMode": "host", "slots": 4, "idle": "90s", "verbose": true, "tags": ["a", "b"]}
                  }
                }
                """);

        FactoryConfig fromYaml = load(yaml);
        FactoryConfig fromJson = load(json);
        ResolvedConfig resolvedYaml = resolveFile(yaml, Map.of());
        ResolvedConfig resolvedJson = resolveFile(json, Map.of());

        assertThat(fromYaml).isEqualTo(fromJson);
        assertThat(fromYaml.stateDir()).contains(tmp.resolve("state"));
        assertThat(fromYaml.timeouts()).isEqualTo(Timeouts.defaults().withSetup(Duration.ofMinutes(20)).withCommand(Duration.ofSeconds(30)));
        assertThat(fromYaml.repository().cloneUrl("acme", "widgets")).isEqualTo("file:///srv/git/acme/widgets.git");
        assertThat(resolvedYaml.providerConfig()).isEqualTo(resolvedJson.providerConfig())
                .isEqualTo(new MemoryConfig("lab", "host", 4, Duration.ofSeconds(90), true, List.of("a", "b"), false));
        assertThat(resolvedYaml).usingRecursiveComparison().ignoringFields("origin", "providerOrigins").isEqualTo(resolvedJson);
    }

    @Test
    void withoutAnySettingsTheDefaultsApply() throws IOException {
        ResolvedConfig resolved = resolve(FactoryConfig.defaults(), Map.of(), ConfigOverrides.none());

        assertThat(resolved.provider()).isEqualTo("local");
        assertThat(resolved.stateDirectory()).isEqualTo(home().resolve(".sandbox-factory"));
        assertThat(resolved.owner()).isEqualTo("tester");
        assertThat(resolved.repository()).isEqualTo(new RepositoryDefaults("https://github.com/{owner}/{name}.git", Optional.empty(),
                List.of(), List.of(), List.of(), List.of(), List.of(), false, Optional.empty()));
        assertThat(resolved.repository().defaultBaseBranch()).as("unset: each repository's own default branch").isEmpty();
        assertThat(resolved.timeouts().setup()).isEqualTo(Duration.ofMinutes(15));
        assertThat(resolved.timeouts().command()).isEmpty();
        assertThat(resolved.providerConfig()).as("a missing section binds as {}")
                .isEqualTo(new MemoryConfig(null, null, null, null, null, null, null));
    }

    @Test
    void anEmptyFileMeansEveryDefault() throws IOException {
        assertThat(load(write("empty.yaml", ""))).isEqualTo(FactoryConfig.defaults());
    }

    @Test
    void anUnknownTopLevelKeyFailsNamingKeyAndFile() throws IOException {
        Path file = write("factory.yaml", "provder: local\n");

        assertThatThrownBy(() -> load(file))
                .isInstanceOf(FactoryConfigurationException.class)
                .hasMessage("Unknown configuration key 'provder' in " + file
                        + "; known keys there: [cache, egress, environments, git, journal, lifecycle, owner, provider, providers, repository, stateDir, store, templates, timeouts].");
    }

    @Test
    void everyTimeoutHasAnEnvironmentVariable() throws IOException {
        ResolvedConfig resolved = resolve(FactoryConfig.defaults(), Map.of("FACTORY_TIMEOUTS_SETUP", "1m", "FACTORY_TIMEOUTS_COMMAND", "2m",
                "FACTORY_TIMEOUTS_PROBE", "3m", "FACTORY_TIMEOUTS_NETWORK", "4m", "FACTORY_TIMEOUTS_CHECKOUT", "5m",
                "FACTORY_TIMEOUTS_TEARDOWN", "6m"), ConfigOverrides.none());

        assertThat(resolved.timeouts()).isEqualTo(new Timeouts(Duration.ofMinutes(1), Optional.of(Duration.ofMinutes(2)),
                Duration.ofMinutes(3), Duration.ofMinutes(4), Duration.ofMinutes(5), Duration.ofMinutes(6)));
    }

    @Test
    void anUnknownFactoryVariableFailsNamingTheClosestKeysVariable() {
        assertThatThrownBy(() -> resolve(FactoryConfig.defaults(), Map.of("FACTORY_PROVIDR", "docker"), ConfigOverrides.none()))
                .isInstanceOf(FactoryConfigurationException.class)
                .hasMessage("Unknown configuration key from environment variable FACTORY_PROVIDR; did you mean FACTORY_PROVIDER?");
        assertThatThrownBy(() -> resolve(FactoryConfig.defaults(), Map.of("FACTORY_PROVIDER_TEST_MEMORY_SLOTS", "3"), ConfigOverrides.none()))
                .hasMessage("Unknown configuration key from environment variable FACTORY_PROVIDER_TEST_MEMORY_SLOTS;"
                        + " did you mean FACTORY_PROVIDERS_TEST_MEMORY_SLOTS?");
        assertThatThrownBy(() -> resolve(FactoryConfig.defaults(), Map.of("FACTORY_COLOUR", "red"), ConfigOverrides.none()))
                .hasMessageStartingWith("Unknown configuration key from environment variable FACTORY_COLOUR; a key's variable is FACTORY_");
    }

    @Test
    void variablesTheFactoryReadsItselfOrTheConfigNamesAreNoTypos() throws IOException {
        Path file = write("factory.yaml", """
                store:
                  type: postgres
                  url: jdbc:postgresql://db:5432/factory
                  user: factory
                  passwordEnv: FACTORY_DB_PASSWORD
                """);

        ResolvedConfig resolved = resolveFile(file, Map.of("FACTORY_DAEMON", "off", "FACTORY_DAEMON_IDLE", "1m", "FACTORY_CDS", "off",
                "FACTORY_PLUGINS", "/tmp/plugins", "FACTORY_DB_PASSWORD", "secret"));

        assertThat(resolved.store().passwordEnv()).contains("FACTORY_DB_PASSWORD");
        assertThat(UnknownVariables.namedIn(new com.fasterxml.jackson.databind.ObjectMapper().readTree(
                "{\"local\": {\"passEnv\": [\"FACTORY_A\", \"B\"], \"tokenEnv\": \"FACTORY_T\", \"env\": {\"FACTORY_X\": \"1\"}}}")))
                .containsExactly("B", "FACTORY_A", "FACTORY_T");
    }

    @Test
    void setupAndTeardownHaveVariablesTakingOneCommandOrAFlowList() throws IOException {
        ResolvedConfig resolved = resolve(FactoryConfig.defaults(), Map.of("FACTORY_REPOSITORY_SETUP", "[npm ci, make build]",
                "FACTORY_REPOSITORY_TEARDOWN", "echo bye: now"), ConfigOverrides.none());

        assertThat(resolved.repository().setup()).containsExactly("npm ci", "make build");
        assertThat(resolved.repository().teardown()).containsExactly("echo bye: now");
    }

    @Test
    void aYamlSyntaxErrorNamesFileLineColumnTheLinesTextAndWhatWasExpected() throws IOException {
        Path file = write("factory.yaml", "provider: local\nrepository:\n  setup: [a, b\ntimeouts: {setup: 1m}\n");

        assertThatThrownBy(() -> load(file))
                .isInstanceOf(FactoryConfigurationException.class)
                .hasMessage("Config file " + file + " is not valid YAML at line 4, column 9 (`timeouts: {setup: 1m}`): expected ',' or ']',"
                        + " but got : (while parsing a flow sequence that starts at line 3, column 10).");
    }

    @Test
    void aJsonSyntaxErrorNamesFileLineColumnAndTheLinesText() throws IOException {
        Path file = write("factory.json", "{\n  \"provider\": \"local\",,\n}\n");

        assertThatThrownBy(() -> load(file))
                .isInstanceOf(FactoryConfigurationException.class)
                .hasMessageStartingWith("Config file " + file + " is not valid JSON at line 2, column ")
                .hasMessageContaining("(`\"provider\": \"local\",,`): Unexpected character (','");
    }

    @Test
    void anUnknownNestedKeyFailsNamingItsFullPath() throws IOException {
        Path file = write("factory.json", "{\"repository\": {\"defaultBranch\": \"main\"}}");

        assertThatThrownBy(() -> load(file))
                .hasMessageStartingWith("Unknown configuration key 'repository.defaultBranch' in " + file + "; known keys there: [");
    }

    @Test
    void anUnknownKeyInAProviderSectionFailsNamingItsFullPathAndFile() throws IOException {
        Path file = write("factory.yaml", """
                providers:
                  test-memory:
                    networkMod: host
                """);

        assertThatThrownBy(() -> resolveFile(file, Map.of()))
                .isInstanceOf(FactoryConfigurationException.class)
                .hasMessage("Unknown configuration key 'providers.test-memory.networkMod' in " + file
                        + "; known keys there: [failOpen, idle, label, networkMode, slots, tags, verbose].");
    }

    @Test
    void aSectionForAProviderThatWasNotDiscoveredFails() throws IOException {
        Path file = write("factory.yaml", "providers:\n  podman:\n    socket: /run/podman.sock\n");

        assertThatThrownBy(() -> resolveFile(file, Map.of()))
                .hasMessage("Configuration section 'providers.podman' in " + file
                        + " names a sandbox provider that was not discovered; available: [custom, docker, local, test-memory].");
    }

    @Test
    void badValuesFailNamingKeyAndFile() throws IOException {
        Path duration = write("d.yaml", "timeouts:\n  setup: fifteen minutes\n");
        Path slots = write("s.yaml", "providers:\n  test-memory:\n    slots: 0\n");
        Path type = write("t.yaml", "providers:\n  test-memory:\n    slots: many\n");

        assertThatThrownBy(() -> load(duration))
                .hasMessageStartingWith("Invalid value for configuration key 'timeouts.setup' in " + duration
                        + ": Duration 'fifteen minutes' is invalid; write it as ISO-8601 (PT15M)");
        assertThatThrownBy(() -> resolveFile(slots, Map.of()))
                .hasMessage("Invalid configuration at 'providers.test-memory' in " + slots + ": slots 0 is invalid; it must be at least 1.");
        assertThatThrownBy(() -> resolveFile(type, Map.of()))
                .hasMessage("Invalid value 'many' for configuration key 'providers.test-memory.slots' in " + type + "; expected Integer.");
    }

    @Test
    void aFileWithAnotherExtensionIsRefused() throws IOException {
        Path file = write("factory.toml", "provider = 'local'\n");

        assertThatThrownBy(() -> load(file))
                .hasMessage("Config file " + file + " has an unsupported extension; use .yaml, .yml or .json.");
    }

    @Test
    void environmentOverridesWinOverTheFile() throws IOException {
        Path file = write("factory.yaml", """
                provider: docker
                owner: from-file
                stateDir: /from/file
                timeouts:
                  setup: 5m
                providers:
                  test-memory:
                    networkMode: none
                    label: keep-me
                """);
        Map<String, String> env = Map.of(
                "FACTORY_PROVIDER", "test-memory",
                "FACTORY_OWNER", "from-env",
                "FACTORY_STATE_DIR", "~/env-state",
                "FACTORY_TIMEOUTS_SETUP", "PT7M",
                "FACTORY_PROVIDERS_TEST_MEMORY_NETWORK_MODE", "host",
                "FACTORY_PROVIDERS_TEST_MEMORY_SLOTS", "8",
                "FACTORY_PROVIDERS_TEST_MEMORY_VERBOSE", "true",
                "FACTORY_PROVIDERS_TEST_MEMORY_TAGS", "[x, y]",
                "FACTORY_PROVIDERS_DOCKER_IDLE", "2h",
                "UNRELATED", "ignored");

        ResolvedConfig resolved = resolveFile(file, env);

        assertThat(resolved.provider()).isEqualTo("test-memory");
        assertThat(resolved.owner()).isEqualTo("from-env");
        assertThat(resolved.stateDirectory()).isEqualTo(home().resolve("env-state"));
        assertThat(resolved.timeouts().setup()).isEqualTo(Duration.ofMinutes(7));
        assertThat(resolved.providerConfig()).isEqualTo(
                new MemoryConfig("keep-me", "host", 8, Duration.ofMinutes(5), true, List.of("x", "y"), false));
        assertThat(resolved.providerConfig("docker", MemoryConfig.class)).get()
                .extracting(MemoryConfig::idle).isEqualTo(Duration.ofHours(2));
    }

    @Test
    void anOverrideNamingAnUnknownKeyFailsNamingTheVariable() {
        assertThatThrownBy(() -> resolve(FactoryConfig.defaults(), Map.of("FACTORY_PROVIDERS_TEST_MEMORY_NETWORK_MOD", "host"),
                ConfigOverrides.none()))
                .isInstanceOf(FactoryConfigurationException.class)
                .hasMessage("Unknown configuration key 'providers.test-memory.NETWORK_MOD' from environment variable"
                        + " FACTORY_PROVIDERS_TEST_MEMORY_NETWORK_MOD; known keys there: [failOpen, idle, label, networkMode, slots, tags, verbose].");
        assertThatThrownBy(() -> resolve(FactoryConfig.defaults(), Map.of("FACTORY_PROVIDERS_PODMAN_SOCKET", "/x"),
                ConfigOverrides.none()))
                .hasMessage("Environment variable FACTORY_PROVIDERS_PODMAN_SOCKET names no discovered sandbox provider after"
                        + " FACTORY_PROVIDERS_; available: [custom, docker, local, test-memory].");
        assertThatThrownBy(() -> resolve(FactoryConfig.defaults(), Map.of("FACTORY_TIMEOUTS_BUILD", "5m"), ConfigOverrides.none()))
                .hasMessageStartingWith("Unknown configuration key from environment variable FACTORY_TIMEOUTS_BUILD; known variables there: [");
    }

    @Test
    void theStoreSectionBindsFromAFileAndEachFactoryStoreVariableOverridesItsKey() throws IOException {
        Path file = write("factory.yaml", """
                store:
                  type: postgres
                  url: jdbc:postgresql://db.internal:5432/factory
                  user: factory
                  passwordEnv: FACTORY_DB_PASSWORD
                  schema: Fleet_A
                  poolSize: 3
                  leaseTtl: 5s
                """);
        StoreConfig fromFile = resolveFile(file, Map.of()).store();
        assertThat(fromFile).isEqualTo(new StoreConfig("postgres", Optional.of("jdbc:postgresql://db.internal:5432/factory"),
                Optional.of("factory"), Optional.of("FACTORY_DB_PASSWORD"), Optional.of("fleet_a"), Optional.of(3),
                Duration.ofSeconds(5), StoreConfig.DEFAULT_CONNECT_TIMEOUT));
        StoreConfig overridden = resolveFile(file, Map.of("FACTORY_STORE_URL", "jdbc:postgresql://127.0.0.1:55432/other",
                "FACTORY_STORE_USER", "ci", "FACTORY_STORE_PASSWORD_ENV", "PGPASSWORD", "FACTORY_STORE_SCHEMA", "ci_run",
                "FACTORY_STORE_POOL_SIZE", "2", "FACTORY_STORE_LEASE_TTL", "1s", "FACTORY_STORE_CONNECT_TIMEOUT", "2s")).store();
        assertThat(overridden).isEqualTo(new StoreConfig("postgres", Optional.of("jdbc:postgresql://127.0.0.1:55432/other"),
                Optional.of("ci"), Optional.of("PGPASSWORD"), Optional.of("ci_run"), Optional.of(2), Duration.ofSeconds(1),
                Duration.ofSeconds(2)));
        assertThat(resolve(FactoryConfig.defaults(), Map.of(), ConfigOverrides.none()).store())
                .as("without a store section: the embedded SQLite store, ten-second leases").isEqualTo(StoreConfig.defaults());
        assertThat(StoreConfig.defaults().type()).isEqualTo("sqlite");
    }

    @Test
    void aStoreUrlWithAPasswordIsRefusedWithoutEchoingIt() throws IOException {
        for (String url : List.of("jdbc:postgresql://db/factory?user=u&password=hunter2", "jdbc:postgresql://u:hunter2@db/factory",
                "jdbc:postgresql://db/factory?ssl=true&sslpassword=hunter2")) {
            Path file = write("factory.yaml", "store: {type: postgres, url: '" + url + "'}\n");
            assertThatThrownBy(() -> resolveFile(file, Map.of()))
                    .isInstanceOf(FactoryConfigurationException.class)
                    .hasMessageContaining("Invalid value for configuration key 'store.url' in " + file + "; it holds a password;"
                            + " put the password in an environment variable and name it in store.passwordEnv.")
                    .hasMessageNotContaining("hunter2");
            assertThatThrownBy(() -> resolve(FactoryConfig.defaults(), Map.of("FACTORY_STORE_URL", url), ConfigOverrides.none()))
                    .hasMessageContaining("FACTORY_STORE_URL").hasMessageNotContaining("hunter2");
        }
    }

    @Test
    void badStoreValuesFailNamingTheKeyAndTheRule() {
        assertThatThrownBy(() -> resolve(FactoryConfig.defaults(), Map.of("FACTORY_STORE_LEASE_TTL", "100ms"), ConfigOverrides.none()))
                .hasMessage("Invalid value '100ms' for configuration key 'store.leaseTtl' from environment variable"
                        + " FACTORY_STORE_LEASE_TTL; it must be at least 300 ms.");
        assertThatThrownBy(() -> resolve(FactoryConfig.defaults(), Map.of("FACTORY_STORE_POOL_SIZE", "many"), ConfigOverrides.none()))
                .hasMessage("Invalid value 'many' for configuration key 'store.poolSize' from environment variable"
                        + " FACTORY_STORE_POOL_SIZE; it must be a whole number.");
        assertThatThrownBy(() -> resolve(FactoryConfig.defaults(), Map.of("FACTORY_STORE_SCHEMA", "a;drop"), ConfigOverrides.none()))
                .hasMessageContaining("Invalid value 'a;drop' for configuration key 'store.schema'");
        assertThatThrownBy(() -> resolve(FactoryConfig.defaults(), Map.of("FACTORY_STORE_PASWORD_ENV", "X"), ConfigOverrides.none()))
                .hasMessageStartingWith("Unknown configuration key from environment variable FACTORY_STORE_PASWORD_ENV;")
                .hasMessageContaining("FACTORY_STORE_PASSWORD_ENV");
    }

    @Test
    void aBadOverrideValueFailsNamingTheVariable() {
        assertThatThrownBy(() -> resolve(FactoryConfig.defaults(), Map.of("FACTORY_PROVIDERS_TEST_MEMORY_SLOTS", "lots"),
                ConfigOverrides.none()))
                .hasMessage("Invalid value 'lots' for configuration key 'providers.test-memory.slots' from environment variable"
                        + " FACTORY_PROVIDERS_TEST_MEMORY_SLOTS; expected Integer.");
        assertThatThrownBy(() -> resolve(FactoryConfig.defaults(), Map.of("FACTORY_TIMEOUTS_COMMAND", "soon"), ConfigOverrides.none()))
                .hasMessageStartingWith("Invalid value from environment variable FACTORY_TIMEOUTS_COMMAND: Duration 'soon' is invalid;");
        assertThatThrownBy(() -> resolve(FactoryConfig.defaults(), Map.of("FACTORY_OWNER", "two words"), ConfigOverrides.none()))
                .hasMessage("Owner 'two words' from environment variable FACTORY_OWNER is invalid; it must match "
                        + ConfigResolver.OWNER.pattern() + ".");
    }

    @Test
    void theTemplatesAndCacheSectionsAndTemplateInputsHaveEnvironmentOverrides() throws IOException {
        Path file = write("factory.yaml", """
                repository:
                  templateInputs: [package-lock.json]
                templates:
                  autoBuild: false
                cache:
                  enabled: false
                  maxIdle: 30d
                """);
        ResolvedConfig fromFile = resolveFile(file, Map.of());
        assertThat(fromFile.templates().autoBuild()).isFalse();
        assertThat(fromFile.cache().enabled()).isFalse();

        ResolvedConfig resolved = resolveFile(file, Map.of("FACTORY_TEMPLATES_AUTO_BUILD", "true", "FACTORY_CACHE_ENABLED", "true",
                "FACTORY_CACHE_MAX_IDLE", "2h", "FACTORY_REPOSITORY_TEMPLATE_INPUTS", "yarn.lock:web/package-lock.json"));
        assertThat(resolved.templates().autoBuild()).isTrue();
        assertThat(resolved.cache().enabled()).isTrue();
        assertThat(resolved.cache().maxIdle()).isEqualTo(Duration.ofHours(2));
        assertThat(resolved.repository().templateInputs()).containsExactly("yarn.lock", "web/package-lock.json");
        assertThat(resolveFile(file, Map.of("FACTORY_CACHE_MAX_IDLE", "1h")).cache().enabled()).as("the file's other key stays").isFalse();
    }

    @Test
    void badTemplatesAndCacheOverridesNameTheVariableAndTheRule() throws IOException {
        Path file = write("factory.yaml", "{}\n");
        assertThatThrownBy(() -> resolveFile(file, Map.of("FACTORY_CACHE_ENABLED", "yes")))
                .isInstanceOf(FactoryConfigurationException.class)
                .hasMessage("Invalid value from environment variable FACTORY_CACHE_ENABLED: 'yes' is neither true nor false.");
        assertThatThrownBy(() -> resolveFile(file, Map.of("FACTORY_TEMPLATES_AUTO_BUILD", "1")))
                .hasMessageContaining("FACTORY_TEMPLATES_AUTO_BUILD").hasMessageContaining("'1' is neither true nor false");
        assertThatThrownBy(() -> resolveFile(file, Map.of("FACTORY_CACHE_MAX_IDLE", "0s")))
                .hasMessageContaining("FACTORY_CACHE_MAX_IDLE").hasMessageContaining("it must be positive");
        assertThatThrownBy(() -> resolveFile(file, Map.of("FACTORY_REPOSITORY_TEMPLATE_INPUTS", "../etc/passwd")))
                .hasMessageContaining("FACTORY_REPOSITORY_TEMPLATE_INPUTS").hasMessageContaining("'../etc/passwd' is invalid");
        assertThatThrownBy(() -> resolveFile(file, Map.of("FACTORY_CACHE_SIZE", "1g")))
                .hasMessageContaining("FACTORY_CACHE_SIZE");
        assertThatThrownBy(() -> resolveFile(file, Map.of("FACTORY_TEMPLATES_AUTOBUILD", "true")))
                .hasMessageContaining("FACTORY_TEMPLATES_AUTOBUILD");
    }

    @Test
    void providerSelectionPrecedenceIsBuilderThenEnvironmentThenFileThenDefault() throws IOException {
        FactoryConfig file = FactoryConfig.builder().provider("docker").build();
        Map<String, String> env = Map.of("FACTORY_PROVIDER", "custom");
        ConfigOverrides builder = new ConfigOverrides(Optional.of("test-memory"), Optional.empty(), Optional.empty());

        assertThat(resolve(FactoryConfig.defaults(), Map.of(), ConfigOverrides.none()).provider()).isEqualTo("local");
        assertThat(resolve(file, Map.of(), ConfigOverrides.none()).provider()).isEqualTo("docker");
        assertThat(resolve(file, env, ConfigOverrides.none()).provider()).isEqualTo("custom");
        assertThat(resolve(file, env, builder).provider()).isEqualTo("test-memory");
    }

    @Test
    void stateDirectoryAndOwnerFollowTheSamePrecedence() throws IOException {
        FactoryConfig file = FactoryConfig.builder().stateDir(tmp.resolve("file")).owner("file-owner").build();
        Map<String, String> env = Map.of("FACTORY_STATE_DIR", tmp.resolve("env").toString(), "FACTORY_OWNER", "env-owner");
        ConfigOverrides builder = new ConfigOverrides(Optional.empty(), Optional.of(tmp.resolve("builder")), Optional.of("builder-owner"));

        ResolvedConfig fromFile = resolve(file, Map.of(), ConfigOverrides.none());
        ResolvedConfig fromEnv = resolve(file, env, ConfigOverrides.none());
        ResolvedConfig fromBuilder = resolve(file, env, builder);

        assertThat(List.of(fromFile.stateDirectory(), fromEnv.stateDirectory(), fromBuilder.stateDirectory()))
                .containsExactly(tmp.resolve("file"), tmp.resolve("env"), tmp.resolve("builder"));
        assertThat(List.of(fromFile.owner(), fromEnv.owner(), fromBuilder.owner()))
                .containsExactly("file-owner", "env-owner", "builder-owner");
    }

    @Test
    void aConfigBuiltInCodeBindsItsProviderSectionsLikeAFile() throws IOException {
        FactoryConfig config = FactoryConfig.builder()
                .provider("test-memory")
                .providerSection("test-memory", Map.of("label", "coded", "idle", "10s"))
                .build();

        assertThat(resolve(config, Map.of(), ConfigOverrides.none()).providerConfig())
                .isEqualTo(new MemoryConfig("coded", null, null, Duration.ofSeconds(10), null, null, null));
        assertThatThrownBy(() -> resolve(FactoryConfig.builder().providerSection("test-memory", Map.of("colour", "red")).build(),
                Map.of(), ConfigOverrides.none()))
                .hasMessageStartingWith("Unknown configuration key 'providers.test-memory.colour' in the test;");
    }
}
