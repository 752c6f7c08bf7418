package io.sandboxfactory.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;

/** {@link CommandOptions}, {@link CommandRequest} and {@link CommandResult} as values. */
class CommandOptionsTest {

    private static final String SECRET = "ghs_s3cr3tValue";

    @Test
    void defaultsHaveNothingButTheDefaultCap() {
        CommandOptions defaults = CommandOptions.defaults();

        assertThat(defaults.cwd()).isEmpty();
        assertThat(defaults.env()).isEmpty();
        assertThat(defaults.timeout()).isEmpty();
        assertThat(defaults.onStdout()).isEmpty();
        assertThat(defaults.onStderr()).isEmpty();
        assertThat(defaults.maxRetainedBytes()).isEqualTo(16L * 1024 * 1024);
    }

    @Test
    void negativeOrZeroTimeoutIsRejectedWithTheRule() {
        assertThatThrownBy(() -> CommandOptions.builder().timeout(Duration.ofSeconds(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Command timeout -1s is invalid; it must be positive.");
        assertThatThrownBy(() -> CommandOptions.builder().timeout(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Command timeout 0s is invalid; it must be positive.");
    }

    @Test
    void negativeCapIsRejectedWithTheRule() {
        assertThatThrownBy(() -> CommandOptions.builder().maxRetainedBytes(-5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxRetainedBytes -5 is invalid; it must be at least 0.");
        assertThat(CommandOptions.builder().maxRetainedBytes(0).build().maxRetainedBytes()).isZero();
    }

    @Test
    void optionsAreImmutableOnceBuilt() {
        CommandOptions.Builder builder = CommandOptions.builder().env("A", "1");
        CommandOptions options = builder.build();
        builder.env("B", "2");

        assertThat(options.env()).containsExactly(entry("A", "1"));
        assertThatThrownBy(() -> options.env().put("C", "3")).isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void toBuilderCopiesEverything() {
        Consumer<String> out = chunk -> { };
        CommandOptions original = CommandOptions.builder().cwd("/w").env("A", "1").timeout(Duration.ofMinutes(2))
                .onStdout(out).maxRetainedBytes(9).build();

        CommandOptions copy = original.toBuilder().env("B", "2").build();

        assertThat(copy.cwd()).contains("/w");
        assertThat(copy.env()).containsExactly(entry("A", "1"), entry("B", "2"));
        assertThat(copy.timeout()).contains(Duration.ofMinutes(2));
        assertThat(copy.onStdout()).containsSame(out);
        assertThat(copy.onStderr()).isEmpty();
        assertThat(copy.maxRetainedBytes()).isEqualTo(9);
        assertThat(original.env()).containsExactly(entry("A", "1"));
    }

    @Test
    void optionsToStringShowsEnvNamesButNotValues() {
        CommandOptions options = CommandOptions.builder().env("GIT_TOKEN", SECRET).cwd("/w").build();

        assertThat(options.toString()).contains("GIT_TOKEN").contains("/w").doesNotContain(SECRET);
    }

    @Test
    void requestToStringShowsEnvNamesButNotValues() {
        CommandRequest request = new CommandRequest("git fetch", Map.of("GIT_TOKEN", SECRET), Optional.of("/w"),
                Optional.empty(), Optional.empty(), Optional.empty(), 10);

        assertThat(request.toString()).contains("git fetch").contains("GIT_TOKEN").doesNotContain(SECRET);
    }

    @Test
    void requestCopiesItsEnvironment() {
        HashMap<String, String> env = new HashMap<>(Map.of("A", "1"));
        CommandRequest request = new CommandRequest("true", env, Optional.empty(), Optional.empty(), Optional.empty(),
                Optional.empty(), 10);

        env.put("B", "2");

        assertThat(request.env()).containsOnly(entry("A", "1"));
    }

    @Test
    void resultSuccessMeansExitCodeZero() {
        assertThat(new CommandResult(0, null, null, null, false, false, false, null).success()).isTrue();
        CommandResult timedOut = new CommandResult(CommandResult.TIMEOUT_EXIT_CODE, "partial", "", Duration.ofSeconds(1),
                true, false, false, "sleep 9");
        assertThat(timedOut.success()).isFalse();
        assertThat(timedOut.exitCode()).isEqualTo(124);
    }

    @Test
    void resultReplacesNullsWithEmptyValues() {
        CommandResult result = new CommandResult(1, null, null, null, false, false, false, null);

        assertThat(result.stdout()).isEmpty();
        assertThat(result.stderr()).isEmpty();
        assertThat(result.executionTime()).isEqualTo(Duration.ZERO);
        assertThat(result.command()).isEmpty();
    }
}
