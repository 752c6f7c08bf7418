package io.sandboxfactory.core.internal.config;

import io.sandboxfactory.api.error.StandardErrorCode;
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
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import io.sandboxfactory.core.config.InvalidConfigException;

/** One resolution reports every config error of the file, the environment and the overrides, each naming key and source. */
class CollectedConfigErrorsTest {

    @TempDir
    Path tmp;

    private static DiscoveredProviders providers() {
        return new DiscoveredProviders(List.of(memory("local"), memory("test-memory")));
    }

    private static DiscoveredProvider memory(String name) {
        return new DiscoveredProvider(name, new MemorySandboxProvider(name), MemorySandboxProvider.class, MemoryConfig.class, "test", "");
    }

    private ResolvedConfig resolveFile(Path file, Map<String, String> env) throws IOException {
        Path home = Files.createDirectories(tmp.resolve("home"));
        return new ConfigResolver(home, "tester").resolveFile(new FactoryConfigLoader(home), file, env, ConfigOverrides.none(), providers());
    }

    @Test
    void everyErrorOfTheFileAndTheEnvironmentIsReportedAtOnce() throws IOException {
        Path file = Files.writeString(tmp.resolve("factory.yaml"), """
                colour: red
                timeouts:
                  setup: soon
                store:
                  poolSize: 99
                providers:
                  test-memory:
                    slots: 0
                  nobody: {}
                """);

        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class,
                () -> resolveFile(file, Map.of("FACTORY_TIMEOUTS_BOGUS", "1", "FACTORY_JOURNAL_MAX_ENTRIES", "many",
                        "FACTORY_PROVIDERS_TEST_MEMORY_COLOUR", "blue")));

        assertThat(e.errorCode()).isEqualTo(StandardErrorCode.INVALID_CONFIG.toErrorCode());
        assertThat(e.problems()).hasSize(8);
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains("'colour'").contains(file.toString()));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains("timeouts.setup").contains(file.toString()));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains("store.poolSize").contains(file.toString()));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains("providers.test-memory").contains("slots 0").contains(file.toString()));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains("providers.nobody").contains(file.toString()));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains("FACTORY_TIMEOUTS_BOGUS"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains("FACTORY_JOURNAL_MAX_ENTRIES").contains("'many'"));
        assertThat(e.problems()).anySatisfy(p -> assertThat(p).contains("FACTORY_PROVIDERS_TEST_MEMORY_COLOUR").contains("known keys there"));
        assertThat(e.getMessage()).startsWith("The configuration has 8 errors:").contains("\n  - ");
    }

    @Test
    void aSingleErrorKeepsItsOwnSentenceAndCode() throws IOException {
        Path file = Files.writeString(tmp.resolve("factory.yaml"), "provider: nowhere\n");
        assertThatThrownBy(() -> resolveFile(file, Map.of()))
                .isInstanceOfSatisfying(FactoryConfigurationException.class, e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.UNKNOWN_PROVIDER.toErrorCode()))
                .hasMessageContaining("nowhere");

        Path bad = Files.writeString(tmp.resolve("bad.yaml"), "timeouts:\n  setup: soon\n");
        assertThatThrownBy(() -> resolveFile(bad, Map.of()))
                .isInstanceOfSatisfying(InvalidConfigException.class, e -> assertThat(e.problems()).hasSize(1))
                .hasMessageNotContaining("errors:").hasMessageContaining("timeouts.setup").hasMessageContaining(bad.toString());
    }

    @Test
    void theLoaderAloneReportsEverySectionOfTheFile() throws IOException {
        Path file = Files.writeString(tmp.resolve("factory.json"), """
                {"repository": {"setup": "x", "bogus": 1}, "cache": {"maxIdle": "0s"}, "journal": {"maxEntries": -1}}
                """);
        Path home = Files.createDirectories(tmp.resolve("home"));
        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class, () -> new FactoryConfigLoader(home).load(file));
        assertThat(e.problems()).hasSize(3)
                .anySatisfy(p -> assertThat(p).contains("repository.bogus"))
                .anySatisfy(p -> assertThat(p).contains("cache.maxIdle"))
                .anySatisfy(p -> assertThat(p).contains("journal.maxEntries"))
                .allSatisfy(p -> assertThat(p).contains(file.toString()));
    }

    @Test
    void everyValueTheRepositorySectionRejectsIsReportedByItsKey() throws IOException {
        Path file = Files.writeString(tmp.resolve("factory.yaml"), """
                repository:
                  cloneUrlTemplate: "ftp://example.com/{owner}/{name}.git"
                  defaultBaseBranch: "a..b"
                  allowedFileRoots: ["/srv/repos", "relative/repos"]
                  templateInputs: ["/etc/passwd"]
                """);
        Path home = Files.createDirectories(tmp.resolve("home"));
        InvalidConfigException e = catchThrowableOfType(InvalidConfigException.class, () -> new FactoryConfigLoader(home).load(file));
        assertThat(e.problems()).hasSize(4)
                .anySatisfy(p -> assertThat(p).contains("'repository.cloneUrlTemplate'").contains("ftp://example.com"))
                .anySatisfy(p -> assertThat(p).contains("'repository.defaultBaseBranch'").contains("'a..b'"))
                .anySatisfy(p -> assertThat(p).contains("'repository.allowedFileRoots[1]'").contains("'relative/repos'"))
                .anySatisfy(p -> assertThat(p).contains("'repository.templateInputs'").contains("'/etc/passwd'"))
                .allSatisfy(p -> assertThat(p).contains(file.toString()));
    }

    @Test
    void aValidFileStillResolves() throws IOException {
        Path file = Files.writeString(tmp.resolve("factory.yaml"), "provider: test-memory\nproviders:\n  test-memory:\n    slots: 3\n");
        ResolvedConfig resolved = resolveFile(file, Map.of("FACTORY_PROVIDERS_TEST_MEMORY_LABEL", "from-env"));
        assertThat(resolved.providerConfig()).isEqualTo(new MemoryConfig("from-env", null, 3, null, null, null, null));
    }
}
