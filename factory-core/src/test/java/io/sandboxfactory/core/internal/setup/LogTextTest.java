package io.sandboxfactory.core.internal.setup;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class LogTextTest {

    @Test
    void textUpTo2000CharactersIsKept() {
        String text = "x".repeat(2000);
        assertThat(LogText.abbreviate(text)).isSameAs(text);
    }

    @Test
    void longerTextKeepsItsFirst200AndLast1797Characters() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 3000; i++) {
            text.append((char) ('a' + i % 26));
        }
        String abbreviated = LogText.abbreviate(text.toString());
        assertThat(abbreviated).hasSize(2000)
                .startsWith(text.substring(0, 200))
                .endsWith(text.substring(3000 - 1797));
        assertThat(abbreviated.substring(200, 203)).isEqualTo("...");
    }
}
