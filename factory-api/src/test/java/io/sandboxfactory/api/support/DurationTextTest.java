package io.sandboxfactory.api.support;

import io.sandboxfactory.api.InvalidConfigValueException;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurationTextTest {

    @Test
    void aDurationReadsAsWrittenInItsLargestWholeUnit() {
        assertThat(DurationText.of(Duration.ofSeconds(30))).isEqualTo("30s");
        assertThat(DurationText.of(Duration.ofSeconds(60))).isEqualTo("1m");
        assertThat(DurationText.of(Duration.ofSeconds(90))).isEqualTo("90s");
        assertThat(DurationText.of(Duration.ofMillis(100))).isEqualTo("100ms");
        assertThat(DurationText.of(Duration.ofDays(7))).isEqualTo("7d");
        assertThat(DurationText.of(Duration.ofSeconds(-5))).isEqualTo("-5s");
    }

    @Test
    void aRejectedDurationIsNamedAsWrittenNotInIso8601() {
        InvalidConfigValueException.Collector problems = new InvalidConfigValueException.Collector();
        problems.reject("idle", Duration.ofSeconds(1), "it must be at least 1m");

        assertThatThrownBy(problems::throwIfAny).hasMessageContaining("'1s'").hasMessageNotContaining("PT1S");
    }
}
