package io.sandboxfactory.cli.daemon;

import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.cli.FactoryLauncher;
import io.sandboxfactory.cli.FactorySource;
import io.sandboxfactory.cli.GitRepos;
import io.sandboxfactory.cli.GlobalOptions;
import io.sandboxfactory.cli.output.Console;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionListener;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The daemon's factory cache and the fingerprints it is keyed by, with real factories on the local provider. */
class WarmFactoriesTest {

    @TempDir
    Path tmp;

    private FactoryLauncher launcher(Map<String, String> env, Path cwd) {
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        Console console = new Console(sink, sink, env, cwd, tmp.resolve("home"), FactorySource.PER_COMMAND);
        GlobalOptions global = new GlobalOptions();
        global.stateDir = tmp.resolve("state");
        global.provider = "local";
        return new FactoryLauncher(console, global);
    }

    @Test
    void aFingerprintFollowsTheConfigFileTheEnvironmentAndPluginsButNotShellBookkeeping() throws Exception {
        Path cwd = Files.createDirectories(tmp.resolve("cwd"));
        Map<String, String> env = new HashMap<>(Map.of("PATH", "/usr/bin:/bin", "PWD", "/a", "SHLVL", "1"));
        String base = launcher(env, cwd).fingerprint();

        assertThat(launcher(Map.of("PATH", "/usr/bin:/bin", "PWD", "/elsewhere", "SHLVL", "3"), cwd).fingerprint()).isEqualTo(base);
        assertThat(launcher(Map.of("PATH", "/usr/bin"), cwd).fingerprint()).isNotEqualTo(base);
        assertThat(launcher(Map.of("PATH", "/usr/bin:/bin", "GH_TOKEN", "t1"), cwd).fingerprint())
                .isNotEqualTo(launcher(Map.of("PATH", "/usr/bin:/bin", "GH_TOKEN", "t2"), cwd).fingerprint())
                .doesNotContain("t1");

        Path config = Files.writeString(cwd.resolve("factory.yaml"), "provider: local\n");
        String withConfig = launcher(env, cwd).fingerprint();
        assertThat(withConfig).isNotEqualTo(base);
        Files.writeString(config, "provider: local\nowner: someone\n");
        assertThat(launcher(env, cwd).fingerprint()).as("the config file's content counts").isNotEqualTo(withConfig);

        String beforePlugin = launcher(env, cwd).fingerprint();
        Files.createDirectories(tmp.resolve("state/plugins"));
        Files.write(tmp.resolve("state/plugins/extra.jar"), new byte[] {1, 2, 3});
        assertThat(launcher(env, cwd).fingerprint()).as("a dropped-in plugin jar counts").isNotEqualTo(beforePlugin);
    }

    @Test
    void commandsWithOneFingerprintShareOneFactoryAndOthersGetTheirOwn() {
        Path cwd = tmp;
        try (WarmFactories warm = new WarmFactories(4)) {
            SandboxFactory first;
            try (FactorySource.Use use = warm.use(launcher(Map.of("PATH", "/usr/bin:/bin"), cwd), SessionListener.NONE)) {
                first = use.factory();
            }
            try (FactorySource.Use again = warm.use(launcher(Map.of("PATH", "/usr/bin:/bin"), cwd), SessionListener.NONE);
                 FactorySource.Use other = warm.use(launcher(Map.of("PATH", "/bin"), cwd), SessionListener.NONE)) {
                assertThat(again.factory()).isSameAs(first);
                assertThat(other.factory()).isNotSameAs(first);
            }
            assertThat(warm.size()).isEqualTo(2);
        }
    }

    @Test
    void beyondCapacityTheLeastRecentlyUsedIdleFactoryIsClosedButNeverOneInUse() {
        try (WarmFactories warm = new WarmFactories(1)) {
            FactorySource.Use held = warm.use(launcher(Map.of("A", "1"), tmp), SessionListener.NONE);
            SandboxFactory idleOne;
            try (FactorySource.Use second = warm.use(launcher(Map.of("A", "2"), tmp), SessionListener.NONE)) {
                idleOne = second.factory();
            }
            assertThat(warm.size()).as("the first is in use, so both stay").isEqualTo(2);

            try (FactorySource.Use third = warm.use(launcher(Map.of("A", "3"), tmp), SessionListener.NONE)) {
                assertThatThrownBy(() -> idleOne.sandbox(FactorySandboxContext.of("x"))).hasMessageContaining("closed");
                assertThatCode(() -> held.factory().sandbox(FactorySandboxContext.of("y"))).as("the factory in use stays open")
                        .doesNotThrowAnyException();
            }
            held.close();
        }
    }

    /** What the daemon runs every minute: each warm factory's idle policies, with its own config. */
    @Test
    void idlePoliciesRunInEveryWarmFactoryWithItsConfig() throws Exception {
        Path repo = tmp.resolve("repo");
        Files.createDirectories(repo);
        GitRepos.git(repo, "init", "-q", "-b", "main");
        GitRepos.git(repo, "-c", "user.name=T", "-c", "user.email=t@example.invalid", "commit", "-q", "--allow-empty", "-m", "one");
        Map<String, String> env = Map.of("PATH", "/usr/bin:/bin", "FACTORY_LIFECYCLE_STOP_AFTER_IDLE", "1h");
        try (WarmFactories warm = new WarmFactories(4)) {
            try (FactorySource.Use use = warm.use(launcher(env, tmp), SessionListener.NONE)) {
                use.factory().openSession(io.sandboxfactory.core.session.SessionSpec.builder("idle").repository(repo.toString())
                        .branch("b").build());
                use.factory().openSession(io.sandboxfactory.core.session.SessionSpec.builder("fresh").repository(repo.toString())
                        .branch("b").build());
                use.factory().sessionStore().recordUse("idle", java.time.Instant.now().minus(java.time.Duration.ofHours(2)),
                        java.util.Optional.empty());
            }

            assertThat(warm.applyIdlePolicies()).containsExactly("retired idle");
            assertThat(warm.applyIdlePolicies()).as("stopped once").isEmpty();
        }
    }

    @Test
    void closingClosesEveryFactoryAndRefusesNewCommands() {
        WarmFactories warm = new WarmFactories(4);
        SandboxFactory factory;
        try (FactorySource.Use use = warm.use(launcher(Map.of(), tmp), SessionListener.NONE)) {
            factory = use.factory();
        }
        warm.close();
        assertThatThrownBy(() -> factory.sandbox(FactorySandboxContext.of("x"))).hasMessageContaining("closed");
        assertThatThrownBy(() -> warm.use(launcher(Map.of(), tmp), SessionListener.NONE)).hasMessageContaining("shutting down");
    }
}
