package io.sandboxfactory.cli.session;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class CommandRunnerTest {

    @Test
    void theTimeoutLineShowsTheLimitAsTheUserWouldWriteIt() {
        assertThat(CommandRunner.timedOutMessage(Duration.ofSeconds(30), 124)).isEqualTo("factory: command timed out after 30s and was killed; exit 124");
        assertThat(CommandRunner.shown(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(CommandRunner.shown(Duration.ofMinutes(10))).isEqualTo("10m");
        assertThat(CommandRunner.shown(Duration.ofHours(2))).isEqualTo("2h");
        assertThat(CommandRunner.shown(Duration.ofMillis(1500))).isEqualTo("1500ms");
    }
}
