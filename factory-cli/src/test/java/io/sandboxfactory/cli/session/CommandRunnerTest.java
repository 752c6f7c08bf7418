package io.sandboxfactory.cli.session;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class CommandRunnerTest {

    @Test
    void theTimeoutLineShowsTheLimitAsTheUserWouldWriteIt() {
        assertThat(CommandRunner.timedOutMessage(Duration.ofSeconds(30), 124)).isEqualTo("factory: command timed out after 30s and was killed; exit 124");
        assertThat(CommandRunner.timedOutMessage(Duration.ofMillis(1500), 124))
                .isEqualTo("factory: command timed out after 1500ms and was killed; exit 124");
    }
}
