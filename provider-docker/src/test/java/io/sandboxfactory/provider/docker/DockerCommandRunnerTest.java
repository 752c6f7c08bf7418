package io.sandboxfactory.provider.docker;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DockerCommandRunnerTest {

    @Test
    void theExitCodePollPausesGrowToFiftyMillisecondsAndStayThereHoweverManyAttempts() {
        long previous = 0;
        // The engine may report "running" for the whole 10 s wait: at 50 ms a pause, some 200 attempts.
        for (int attempt = 0; attempt <= 1_000; attempt++) {
            long pause = DockerCommandRunner.exitCodePollPauseMillis(attempt);
            assertThat(pause).as("pause of attempt %d", attempt).isBetween(previous, 50L).isPositive();
            previous = pause;
        }
        assertThat(DockerCommandRunner.exitCodePollPauseMillis(0)).isEqualTo(1L);
        assertThat(previous).isEqualTo(50L);
    }
}
