package io.sandboxfactory.core.config;

import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DurationFormatTest {

    @ParameterizedTest
    @CsvSource({"PT15M,900000", "pt30s,30000", "15m,900000", "30s,30000", "500ms,500", "2h,7200000", "1d,86400000", "1h30m,5400000"})
    void acceptsIsoAndUnitForms(String text, long millis) {
        assertThat(DurationFormat.parse(text)).isEqualTo(Duration.ofMillis(millis));
    }

    @ParameterizedTest
    @CsvSource({"30000,30s", "90000,90s", "600000,10m", "5400000,90m", "7200000,2h", "86400000,1d", "2592000000,30d", "1500,1500ms", "500,500ms", "0,0s"})
    void writesTheLargestWholeUnitAndReadsItBack(long millis, String text) {
        assertThat(DurationFormat.format(Duration.ofMillis(millis))).isEqualTo(text);
        assertThat(DurationFormat.parse(text)).isEqualTo(Duration.ofMillis(millis));
    }

    @ParameterizedTest
    @ValueSource(strings = {"15", "m", "15 m", "fifteen", "PTX", ""})
    void rejectsAnythingElseNamingTheValue(String text) {
        assertThatThrownBy(() -> DurationFormat.parse(text))
                .isInstanceOfSatisfying(InvalidInputException.class, e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.INVALID_ARGUMENT.toErrorCode()))
                .hasMessageStartingWith("Duration '" + text + "' is invalid;");
    }
}
