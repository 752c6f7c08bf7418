package io.sandboxfactory.provider.docker;

import org.junit.jupiter.api.Test;
import org.opentest4j.TestAbortedException;

import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RequiresDockerEngineTest {

    @Test
    void letsTestsRunWhenDockerIsThere() {
        assertThatCode(() -> RequiresDockerEngine.gate(Optional.empty(), true)).doesNotThrowAnyException();
        assertThatCode(() -> RequiresDockerEngine.gate(Optional.empty(), false)).doesNotThrowAnyException();
    }

    @Test
    void skipsWithAHintWhenDockerIsMissing() {
        assertThatThrownBy(() -> RequiresDockerEngine.gate(Optional.of("No engine."), false))
                .isInstanceOf(TestAbortedException.class)
                .hasMessageContaining("No engine.")
                .hasMessageContaining("scripts/docker-up.sh");
    }

    @Test
    void failsOnCiWhenDockerIsMissing() {
        assertThatThrownBy(() -> RequiresDockerEngine.gate(Optional.of("No engine."), true))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("CI=true, so the Docker integration tests must run, but: No engine.")
                .hasMessageContaining("scripts/docker-up.sh");
    }
}
