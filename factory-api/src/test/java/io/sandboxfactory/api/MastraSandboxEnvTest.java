package io.sandboxfactory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** The runtime environment overlay and how a command request is built from a call. */
class MastraSandboxEnvTest {

    @Test
    void getEnvReturnsACopy() {
        FakeSandbox sandbox = new FakeSandbox("s-env-copy");
        sandbox.setEnv(env -> {
            env.put("A", "1");
            return env;
        });

        Map<String, String> copy = sandbox.getEnv();
        copy.put("B", "2");
        copy.remove("A");

        assertThat(sandbox.getEnv()).containsExactly(entry("A", "1"));
    }

    @Test
    void theMapHandedToAnUpdateIsNotKept() {
        FakeSandbox sandbox = new FakeSandbox("s-env-update");
        List<Map<String, String>> handedOut = new ArrayList<>();
        sandbox.setEnv(env -> {
            handedOut.add(env);
            env.put("A", "1");
            return env;
        });

        handedOut.forEach(env -> env.put("SNUCK_IN", "x"));

        assertThat(sandbox.getEnv()).containsExactly(entry("A", "1"));
    }

    @Test
    void updatesSeeTheCurrentOverlay() {
        FakeSandbox sandbox = new FakeSandbox("s-env-chain");
        sandbox.setEnv(env -> {
            env.put("A", "1");
            return env;
        });
        sandbox.setEnv(env -> {
            env.put("B", env.get("A") + "2");
            return env;
        });

        assertThat(sandbox.getEnv()).containsExactly(entry("A", "1"), entry("B", "12"));
    }

    @Test
    void perCallEnvWinsOverTheOverlay() {
        FakeSandbox sandbox = new FakeSandbox("s-env-merge");
        sandbox.setEnv(env -> {
            env.put("A", "overlay");
            env.put("B", "overlay");
            return env;
        });

        sandbox.executeCommand("env", List.of(), CommandOptions.builder().env("B", "call").env("C", "call").build());

        assertThat(sandbox.executed.get(0).request().env())
                .containsOnly(entry("A", "overlay"), entry("B", "call"), entry("C", "call"));
    }

    @Test
    void overlayChangesApplyToLaterCommandsOnly() {
        FakeSandbox sandbox = new FakeSandbox("s-env-later");
        sandbox.setEnv(env -> Map.of("TOKEN", "first"));
        sandbox.executeCommand("one");
        sandbox.setEnv(env -> Map.of("TOKEN", "second"));
        sandbox.executeCommand("two");

        assertThat(sandbox.executed).extracting(e -> e.request().env().get("TOKEN")).containsExactly("first", "second");
    }

    @Test
    void theStartHookCanSetEnvForItsOwnCommands() {
        FakeSandbox sandbox = new FakeSandbox("s-env-hook");
        sandbox.setOnStart(previous -> event -> {
            sandbox.setEnv(env -> {
                env.put("GIT_TOKEN", "fresh");
                return env;
            });
            event.exec().executeCommand("git", List.of("fetch"));
        });

        sandbox.start();

        assertThat(sandbox.executed.get(0).request().env()).containsEntry("GIT_TOKEN", "fresh");
    }

    @Test
    void nullValuesAreRejectedAndTheOverlayIsKept() {
        FakeSandbox sandbox = new FakeSandbox("s-env-null");
        sandbox.setEnv(env -> Map.of("KEEP", "me"));

        assertThatThrownBy(() -> sandbox.setEnv(env -> {
            env.put("TOKEN", null);
            return env;
        })).isInstanceOf(NullPointerException.class)
                .hasMessage("Environment variable 'TOKEN' has a null value; values must not be null (use \"\" for an empty value).");
        assertThatThrownBy(() -> sandbox.setEnv(env -> {
            env.put(null, "x");
            return env;
        })).isInstanceOf(NullPointerException.class)
                .hasMessage("An environment variable name is null; names must not be null.");
        assertThatThrownBy(() -> sandbox.setEnv(env -> null))
                .isInstanceOf(NullPointerException.class)
                .hasMessage("The environment update returned null; it must return the map to use.");

        assertThat(sandbox.getEnv()).containsExactly(entry("KEEP", "me"));
    }

    @Test
    void perCallNullValuesAreRejected() {
        Map<String, String> withNull = new HashMap<>();
        withNull.put("TOKEN", null);

        assertThatThrownBy(() -> CommandOptions.builder().env(withNull))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("'TOKEN' has a null value");
    }

    @Test
    void requestCarriesTheQuotedCommandLineAndTheCallOptions() {
        FakeSandbox sandbox = new FakeSandbox("s-request");
        Consumer<String> out = chunk -> { };
        Consumer<String> err = chunk -> { };

        sandbox.executeCommand("git", List.of("commit", "-m", "fix it's bug"), CommandOptions.builder()
                .cwd("/workspace/repo")
                .timeout(Duration.ofSeconds(5))
                .onStdout(out)
                .onStderr(err)
                .maxRetainedBytes(64)
                .build());

        CommandRequest request = sandbox.executed.get(0).request();
        assertThat(request.commandLine()).isEqualTo("git commit -m 'fix it'\\''s bug'");
        assertThat(request.cwd()).contains("/workspace/repo");
        assertThat(request.timeout()).contains(Duration.ofSeconds(5));
        assertThat(request.onStdout()).containsSame(out);
        assertThat(request.onStderr()).containsSame(err);
        assertThat(request.maxRetainedBytes()).isEqualTo(64);
    }
}
