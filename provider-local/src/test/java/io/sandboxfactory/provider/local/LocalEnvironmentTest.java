package io.sandboxfactory.provider.local;

import io.sandboxfactory.api.InvalidConfigValueException;
import static org.assertj.core.api.Assertions.tuple;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.sandboxfactory.provider.local.TestBed.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What environment a command sees. The surefire configuration of this module sets {@link
 * #HOST_SECRET} in the test JVM's environment, standing for any host variable a session must not
 * see unless configured to.
 */
class LocalEnvironmentTest {

    private static final String HOST_SECRET = "SANDBOX_FACTORY_TEST_HOST_SECRET";

    @TempDir
    Path temp;

    private static Map<String, String> envOf(LocalSandbox sandbox) {
        CommandResult result = run(sandbox, "env");
        assertThat(result.exitCode()).isZero();
        return Arrays.stream(result.stdout().split("\n"))
                .filter(line -> line.contains("="))
                .collect(Collectors.toMap(line -> line.substring(0, line.indexOf('=')),
                        line -> line.substring(line.indexOf('=') + 1), (a, b) -> b));
    }

    private LocalProviderConfig config(List<String> passEnv, Boolean inherit, Map<String, String> env) {
        return new LocalProviderConfig(temp.resolve("sessions").toString(), passEnv, inherit, env);
    }

    @Test
    void theHostEnvironmentIsNotInheritedExceptPathAndHome() {
        assertThat(System.getenv(HOST_SECRET)).as("precondition: surefire sets the host variable").isEqualTo("host-only-value");
        try (TestBed bed = new TestBed(temp)) {
            Map<String, String> env = envOf(bed.sandbox("plain"));

            assertThat(env).doesNotContainKey(HOST_SECRET);
            assertThat(env).containsEntry("PATH", System.getenv("PATH"));
            // Isolated, HOME is the session's own (the host's does not exist inside); else the host's.
            assertThat(env).containsEntry("HOME", bed.factory().isolation().equals(LocalProviderConfig.NAMESPACES)
                    ? SessionPrivate.of(bed.root().resolve("plain")).home().toString() : System.getenv("HOME"));
            // Any other variable of the test JVM is absent as well (the shell adds PWD itself).
            System.getenv().keySet().stream()
                    .filter(name -> !List.of("PATH", "HOME", "PWD", "OLDPWD", "SHLVL", "_").contains(name))
                    .forEach(name -> assertThat(env).as("host variable %s leaked", name).doesNotContainKey(name));
        }
    }

    @Test
    void passEnvLetsNamedHostVariablesThrough() {
        try (TestBed bed = new TestBed(temp, config(List.of(HOST_SECRET, "SANDBOX_FACTORY_TEST_UNSET"), null, null))) {
            Map<String, String> env = envOf(bed.sandbox("passed"));

            assertThat(env).containsEntry(HOST_SECRET, "host-only-value");
            assertThat(env).doesNotContainKey("SANDBOX_FACTORY_TEST_UNSET");
        }
    }

    @Test
    void inheritEnvironmentPassesTheWholeHostEnvironment() {
        try (TestBed bed = new TestBed(temp, config(null, true, null))) {
            Map<String, String> env = envOf(bed.sandbox("inherited"));

            assertThat(env).containsEntry(HOST_SECRET, "host-only-value");
            assertThat(env).containsEntry("PATH", System.getenv("PATH"));
        }
    }

    @Test
    void providerEnvIsUnderTheOverlayWhichIsUnderPerCallEnv() {
        Map<String, String> base = Map.of("A", "base", "B", "base", "C", "base", HOST_SECRET, "configured");
        try (TestBed bed = new TestBed(temp, config(null, null, base))) {
            LocalSandbox sandbox = bed.sandbox("layers");
            sandbox.setEnv(env -> {
                env.put("B", "overlay");
                env.put("C", "overlay");
                return env;
            });

            CommandResult result = sandbox.executeCommand("printf '%s,%s,%s,%s' \"$A\" \"$B\" \"$C\" \"$" + HOST_SECRET + "\"", List.of(),
                    CommandOptions.builder().env("C", "call").build());

            assertThat(result.stdout()).isEqualTo("base,overlay,call,configured");
            // The overlay lasts; the per-call variable does not.
            assertThat(run(sandbox, "printf '%s' \"$C\"").stdout()).isEqualTo("overlay");
        }
    }

    @Test
    void perCallEnvCanReplacePath() {
        try (TestBed bed = new TestBed(temp)) {
            CommandResult result = run(bed.sandbox("path"), "echo \"$PATH\"; ls",
                    CommandOptions.builder().env("PATH", "/nonexistent").build());

            assertThat(result.stdout()).isEqualTo("/nonexistent\n");
            assertThat(result.exitCode()).isEqualTo(127);
        }
    }

    @Test
    void baseEnvFallsBackToAStandardPathWhenTheHostHasNone() {
        Map<String, String> env = LocalSandboxProvider.baseEnv(LocalProviderConfig.defaults(), Map.of("SECRET", "x"));

        assertThat(env).containsExactly(Map.entry("PATH", "/usr/local/bin:/usr/bin:/bin"));
    }

    @Test
    void configuredVariablesWithInvalidNamesAreAllRejectedWhenTheConfigIsRead() {
        Map<String, String> env = new java.util.TreeMap<>(Map.of("BAD=NAME", "x", "OK", "y", "ALSO=BAD", "z"));

        assertThatThrownBy(() -> config(null, null, env))
                .isInstanceOfSatisfying(InvalidConfigValueException.class, e -> assertThat(e.problems())
                        .extracting(InvalidConfigValueException.Problem::key, InvalidConfigValueException.Problem::value)
                        .containsExactly(tuple("env", "ALSO=BAD"), tuple("env", "BAD=NAME")))
                .hasMessageNotContaining("providers.local");
    }
}
