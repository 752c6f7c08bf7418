package io.sandboxfactory.cli.output;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class CopyProgressTest {

    private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    private final PrintStream err = new PrintStream(bytes, true, StandardCharsets.UTF_8);
    private final AtomicLong now = new AtomicLong();

    private String lines() {
        return bytes.toString(StandardCharsets.UTF_8);
    }

    @Test
    void reportsLargeCopiesAtMostOnceASecond() {
        CopyProgress progress = new CopyProgress(err, false, now::get);
        now.set(500_000_000L);
        progress.onProgress(10L << 20, 200L << 20);
        assertThat(lines()).isEmpty();
        now.set(1_000_000_000L);
        progress.onProgress(100L << 20, 200L << 20);
        progress.onProgress(101L << 20, 200L << 20);
        now.set(2_500_000_000L);
        progress.onProgress(150L << 20, -1);
        assertThat(lines()).isEqualTo("factory: copying... 50% (100.0 MiB of 200.0 MiB)\nfactory: copying... 150.0 MiB\n");
    }

    @Test
    void staysSilentForSmallCopiesAndWhenQuiet() {
        CopyProgress small = new CopyProgress(err, false, now::get);
        CopyProgress quiet = new CopyProgress(err, true, now::get);
        now.set(5_000_000_000L);
        small.onProgress(1 << 20, 2 << 20);
        quiet.onProgress(100L << 20, 200L << 20);
        assertThat(lines()).isEmpty();
    }

    @Test
    void formatsSizes() {
        assertThat(CopyProgress.size(999)).isEqualTo("999 B");
        assertThat(CopyProgress.size(1536)).isEqualTo("1.5 KiB");
        assertThat(CopyProgress.size(3L << 30)).isEqualTo("3.0 GiB");
    }
}
