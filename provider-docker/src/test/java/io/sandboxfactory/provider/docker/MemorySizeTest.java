package io.sandboxfactory.provider.docker;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MemorySizeTest {

    @ParameterizedTest
    @CsvSource({
            "536870912, 536870912",
            "512m, 536870912",
            "512M, 536870912",
            "512mb, 536870912",
            "512MiB, 536870912",
            "2g, 2147483648",
            "1.5g, 1610612736",
            "6144k, 6291456",
            "1t, 1099511627776",
            "' 64m ', 67108864",
            "7000000b, 7000000"})
    void parsesDockerSpellings(String text, long bytes) {
        assertThat(MemorySize.parse(text, "memory")).isEqualTo(bytes);
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "m", "-1m", "12x", "1.5.5g", "ten", "512 m b", "1e9", "0x100m", "512ib"})
    void rejectsOtherSyntaxNamingTheValueAndTheRule(String text) {
        assertThatThrownBy(() -> MemorySize.parse(text, "memory"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("memory '" + text + "' is invalid; it must be a number of bytes with an optional"
                        + " binary unit b, k, m, g or t (for example 536870912, 512m or 2g).");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0", "1k", "5m", "6291455"})
    void rejectsLimitsUnderDockersMinimum(String text) {
        assertThatThrownBy(() -> MemorySize.parse(text, "memory"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("memory '" + text + "' is invalid; Docker needs at least 6m (6291456 bytes).");
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.5b", "1.0000001k", "99999999999t"})
    void rejectsFractionalBytesAndOverflow(String text) {
        assertThatThrownBy(() -> MemorySize.parse(text, "memory"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("memory '" + text + "' is invalid; it must be a whole number of bytes");
    }

    @ParameterizedTest
    @ValueSource(strings = {"6m", "6291456"})
    void acceptsTheMinimum(String text) {
        assertThat(MemorySize.parse(text, "memory")).isEqualTo(MemorySize.MINIMUM_BYTES);
    }
}
