package io.sandboxfactory.core.internal.config;

import io.sandboxfactory.core.config.ConfigValue;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.config.GitConfig;
import io.sandboxfactory.core.DiscoveredProvider;
import io.sandboxfactory.core.internal.discovery.DiscoveredProviders;
import io.sandboxfactory.core.testing.MemoryConfig;
import io.sandboxfactory.core.testing.MemorySandboxProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * {@code git.user.name} and {@code git.user.email}: each part from the environment, else the file,
 * else the host user's {@code git config --global} (a real git reading a home of the test's), else
 * the built-in {@code Sandbox Factory <factory@localhost>}; a value no commit header can carry is
 * refused naming the key, the value and the rule.
 */
class GitIdentityConfigTest {

    @TempDir
    Path tmp;

    private static DiscoveredProviders providers() {
        return new DiscoveredProviders(List.of(new DiscoveredProvider("local", new MemorySandboxProvider("local"), MemorySandboxProvider.class,
                MemoryConfig.class, "test", "")));
    }

    private Path home(String gitconfig) throws IOException {
        Path home = Files.createDirectories(tmp.resolve("home"));
        if (gitconfig != null) {
            Files.writeString(home.resolve(".gitconfig"), gitconfig);
        }
        return home;
    }

    private ResolvedConfig resolve(Path home, Path file, Map<String, String> env) {
        ConfigResolver resolver = new ConfigResolver(home, "tester");
        return file == null ? resolver.resolve(FactoryConfig.defaults(), "the test", env, ConfigOverrides.none(), providers())
                : resolver.resolveFile(new FactoryConfigLoader(home), file, env, ConfigOverrides.none(), providers());
    }

    private Map<String, ConfigValue> explain(Path home, Path file, Map<String, String> env) {
        ResolvedConfig resolved = resolve(home, file, env);
        Map<String, ConfigValue> byKey = new LinkedHashMap<>();
        new ConfigExplainer().explain(resolved, FactoryConfig.defaults(), Optional.ofNullable(file), env, ConfigOverrides.none(), providers(),
                key -> "flag").values().forEach(v -> byKey.put(v.key(), v));
        return byKey;
    }

    @Test
    void withoutConfigurationTheHostUsersGlobalIdentityApplies() throws IOException {
        Path home = home("[user]\n\tname = Ada Lovelace\n\temail = ada@example.org\n");

        assertThat(resolve(home, null, Map.of()).git()).isEqualTo(GitConfig.of("Ada Lovelace", "ada@example.org"));
        Map<String, ConfigValue> explained = explain(home, null, Map.of());
        assertThat(explained.get("git.user.name").value()).isEqualTo("Ada Lovelace");
        assertThat(explained.get("git.user.name").source()).isEqualTo(ConfigExplainer.HOST_GIT_SOURCE);
        assertThat(explained.get("git.user.email").source()).isEqualTo(ConfigExplainer.HOST_GIT_SOURCE);
    }

    @Test
    void withoutConfigurationOrHostIdentityTheBuiltInOneApplies() throws IOException {
        Path home = home(null);

        assertThat(resolve(home, null, Map.of()).git()).isEqualTo(GitConfig.of("Sandbox Factory", "factory@localhost"));
        assertThat(explain(home, null, Map.of()).get("git.user.email")).isEqualTo(new ConfigValue("git.user.email", "factory@localhost", "default"));
    }

    @Test
    void eachPartDefaultsOnItsOwn() throws IOException {
        Path home = home("[user]\n\tname = Ada Lovelace\n");
        Path file = Files.writeString(tmp.resolve("factory.yaml"), "git:\n  user:\n    email: bot@example.org\n");

        assertThat(resolve(home, null, Map.of()).git()).isEqualTo(GitConfig.of("Ada Lovelace", "factory@localhost"));
        assertThat(resolve(home, file, Map.of()).git()).isEqualTo(GitConfig.of("Ada Lovelace", "bot@example.org"));
    }

    @Test
    void theEnvironmentBeatsTheFileWhichBeatsTheHost() throws IOException {
        Path home = home("[user]\n\tname = Ada Lovelace\n\temail = ada@example.org\n");
        Path file = Files.writeString(tmp.resolve("factory.yaml"), "git:\n  user:\n    name: Review Bot\n    email: bot@example.org\n");
        Map<String, String> env = Map.of("FACTORY_GIT_USER_NAME", "Night Agent");

        assertThat(resolve(home, file, env).git()).isEqualTo(GitConfig.of("Night Agent", "bot@example.org"));
        Map<String, ConfigValue> explained = explain(home, file, env);
        assertThat(explained.get("git.user.name").source()).isEqualTo("environment FACTORY_GIT_USER_NAME");
        assertThat(explained.get("git.user.email").source()).isEqualTo("file " + file);
        assertThat(resolve(home, null, Map.of("FACTORY_GIT_USER_EMAIL", "agent@example.org")).git())
                .isEqualTo(GitConfig.of("Ada Lovelace", "agent@example.org"));
    }

    @Test
    void aValueWithALineBreakOrNulIsRefusedNamingKeyValueSourceAndRule() throws IOException {
        Path home = home(null);
        Path file = Files.writeString(tmp.resolve("factory.yaml"), "git:\n  user:\n    name: \"Ada\\n[core]\"\n    email: \"a\\0@x\"\n");

        assertThatThrownBy(() -> resolve(home, file, Map.of())).hasMessage("The configuration has 2 errors:\n"
                + "  - Invalid value 'Ada\\n[core]' for configuration key 'git.user.name' in " + file + "; " + GitConfig.User.RULE + ".\n"
                + "  - Invalid value 'a\\0@x' for configuration key 'git.user.email' in " + file + "; " + GitConfig.User.RULE + ".");
        assertThatThrownBy(() -> resolve(home, null, Map.of("FACTORY_GIT_USER_EMAIL", "a@x\nb")))
                .hasMessage("Invalid value 'a@x\\nb' for configuration key 'git.user.email' from environment variable FACTORY_GIT_USER_EMAIL; "
                        + GitConfig.User.RULE + ".");
        assertThatThrownBy(() -> resolve(home, null, Map.of("FACTORY_GIT_USER_NAME", "<Ada>")))
                .hasMessageContaining("'<Ada>' for configuration key 'git.user.name'");
        assertThatThrownBy(() -> GitConfig.of(" ", "a@x")).hasMessage("name ' ' is invalid; " + GitConfig.User.RULE + ".");
    }

    @Test
    void anUnknownGitVariableIsAnError() throws IOException {
        assertThatThrownBy(() -> resolve(home(null), null, Map.of("FACTORY_GIT_USER", "Ada")))
                .hasMessageContaining("FACTORY_GIT_USER").hasMessageContaining("FACTORY_GIT_USER_NAME");
    }
}
