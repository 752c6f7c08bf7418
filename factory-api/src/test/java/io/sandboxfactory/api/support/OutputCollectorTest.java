package io.sandboxfactory.api.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Streaming, bounded retention and listener isolation of {@link OutputCollector}. */
class OutputCollectorTest {

    /** One-, two-, three- and four-byte characters, the last one a surrogate pair in Java. */
    private static final String MIXED = "a é 日本 𝄞 ☃\nüber 𝄞𝄞 end";

    @Test
    void byteByByteStreamingNeverSplitsACharacter() {
        List<String> chunks = new ArrayList<>();
        OutputCollector collector = new OutputCollector(1024, Optional.of(chunks::add));
        byte[] bytes = MIXED.getBytes(StandardCharsets.UTF_8);

        for (int i = 0; i < bytes.length; i++) {
            collector.accept(bytes, i, 1);
        }
        collector.finish();

        assertWholeCharacters(chunks);
        assertThat(String.join("", chunks)).isEqualTo(MIXED);
        assertThat(chunks).hasSize(MIXED.codePointCount(0, MIXED.length()));
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3, 5, 7})
    void anyChunkingDeliversWholeCharacters(int chunkSize) {
        List<String> chunks = new ArrayList<>();
        OutputCollector collector = new OutputCollector(1024, Optional.of(chunks::add));
        byte[] bytes = MIXED.getBytes(StandardCharsets.UTF_8);

        for (int i = 0; i < bytes.length; i += chunkSize) {
            collector.accept(bytes, i, Math.min(chunkSize, bytes.length - i));
        }
        collector.finish();

        assertWholeCharacters(chunks);
        assertThat(String.join("", chunks)).isEqualTo(MIXED);
    }

    @Test
    void aStreamEndingMidCharacterIsFlushedAsAReplacement() {
        List<String> chunks = new ArrayList<>();
        OutputCollector collector = new OutputCollector(1024, Optional.of(chunks::add));
        byte[] ni = "日".getBytes(StandardCharsets.UTF_8);

        collector.accept(ni, 0, 2);
        assertThat(chunks).isEmpty();
        collector.finish();

        assertThat(chunks).containsExactly("\uFFFD");
    }

    @Test
    void retainsTheNewestBytesAndReportsTruncation() {
        OutputCollector collector = new OutputCollector(10, Optional.empty());
        byte[] bytes = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

        collector.accept(bytes, 0, 4);
        collector.accept(bytes, 4, 5);
        collector.accept(bytes, 9, 7);

        assertThat(collector.text()).isEqualTo("6789abcdef");
        assertThat(collector.truncated()).isTrue();
        assertThat(collector.totalBytes()).isEqualTo(16);
    }

    @Test
    void outputWithinTheCapIsKeptWhole() {
        OutputCollector collector = new OutputCollector(100, Optional.empty());
        byte[] bytes = MIXED.getBytes(StandardCharsets.UTF_8);

        collector.accept(bytes, 0, bytes.length);

        assertThat(collector.text()).isEqualTo(MIXED);
        assertThat(collector.truncated()).isFalse();
    }

    @Test
    void oneChunkLargerThanTheCapKeepsItsTail() {
        OutputCollector collector = new OutputCollector(4, Optional.empty());
        byte[] bytes = "abcdefgh".getBytes(StandardCharsets.US_ASCII);

        collector.accept(bytes, 1, 6);

        assertThat(collector.text()).isEqualTo("defg");
        assertThat(collector.truncated()).isTrue();
    }

    @Test
    void manyWritesAcrossTheRingMatchTheTailOfEverything() {
        Random random = new Random(42);
        StringBuilder all = new StringBuilder();
        OutputCollector collector = new OutputCollector(777, Optional.empty());

        for (int i = 0; i < 500; i++) {
            StringBuilder chunk = new StringBuilder();
            int length = random.nextInt(40);
            for (int j = 0; j < length; j++) {
                chunk.append((char) ('a' + random.nextInt(26)));
            }
            byte[] bytes = chunk.toString().getBytes(StandardCharsets.US_ASCII);
            collector.accept(bytes, 0, bytes.length);
            all.append(chunk);
        }

        assertThat(collector.text()).isEqualTo(all.substring(all.length() - 777));
        assertThat(collector.totalBytes()).isEqualTo(all.length());
    }

    @ParameterizedTest
    @ValueSource(strings = {"é", "日", "𝄞"})
    void truncatedTextStartsAtAWholeCharacter(String wide) {
        String stream = "x" + wide + "yz";
        byte[] bytes = stream.getBytes(StandardCharsets.UTF_8);
        // Every cap that cuts into the wide character drops its remains; one that keeps it all keeps it.
        for (int cap = 1; cap <= bytes.length - 1; cap++) {
            OutputCollector collector = new OutputCollector(cap, Optional.empty());
            collector.accept(bytes, 0, bytes.length);

            String expected = cap >= wide.getBytes(StandardCharsets.UTF_8).length + 2 ? wide + "yz" : "yz".substring(Math.max(0, 2 - cap));
            assertThat(collector.text()).as("cap %d", cap).isEqualTo(expected).doesNotContain("\uFFFD");
            assertThat(collector.truncated()).isTrue();
        }
    }

    @Test
    void capZeroRetainsNothingButStillStreams() {
        List<String> chunks = new ArrayList<>();
        OutputCollector collector = new OutputCollector(0, Optional.of(chunks::add));
        byte[] bytes = "hello".getBytes(StandardCharsets.US_ASCII);

        collector.accept(bytes, 0, bytes.length);

        assertThat(collector.text()).isEmpty();
        assertThat(collector.truncated()).isTrue();
        assertThat(collector.totalBytes()).isEqualTo(5);
        assertThat(chunks).containsExactly("hello");
    }

    @Test
    void nothingWrittenIsNotTruncated() {
        OutputCollector collector = new OutputCollector(0, Optional.empty());

        collector.accept(new byte[0], 0, 0);

        assertThat(collector.truncated()).isFalse();
        assertThat(collector.text()).isEmpty();
    }

    @Test
    void aThrowingListenerIsDroppedAndRecorded() {
        List<String> seen = new ArrayList<>();
        IllegalStateException boom = new IllegalStateException("listener broke");
        Consumer<String> listener = chunk -> {
            seen.add(chunk);
            throw boom;
        };
        OutputCollector collector = new OutputCollector(100, Optional.of(listener));
        byte[] bytes = "one two".getBytes(StandardCharsets.US_ASCII);

        collector.accept(bytes, 0, 3);
        collector.accept(bytes, 3, 4);
        collector.finish();

        assertThat(seen).containsExactly("one");
        assertThat(collector.listenerFailure()).containsSame(boom);
        assertThat(collector.text()).isEqualTo("one two");
    }

    @Test
    void negativeCapIsRejected() {
        assertThatThrownBy(() -> new OutputCollector(-1, Optional.empty()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxRetainedBytes -1 is invalid; it must be at least 0.");
    }

    /** Chunks of every size, across the collector's internal blocks and its cap, keep exactly the newest bytes. */
    @ParameterizedTest
    @ValueSource(ints = {1, 4095, 4096, 65536, 65537, 200_000, 1_000_000})
    void retainsExactlyTheNewestBytesWhateverTheChunking(int cap) {
        Random random = new Random(cap);
        OutputCollector collector = new OutputCollector(cap, Optional.empty());
        java.io.ByteArrayOutputStream all = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < 400; i++) {
            byte[] chunk = new byte[random.nextInt(i % 50 == 0 ? 150_000 : 9_000) + 1];
            for (int b = 0; b < chunk.length; b++) {
                chunk[b] = (byte) ('a' + random.nextInt(26));
            }
            int offset = random.nextInt(chunk.length);
            collector.accept(chunk, offset, chunk.length - offset);
            all.write(chunk, offset, chunk.length - offset);
        }
        byte[] expected = all.toByteArray();
        int kept = Math.min(cap, expected.length);
        assertThat(collector.text()).isEqualTo(new String(expected, expected.length - kept, kept, StandardCharsets.US_ASCII));
        assertThat(collector.totalBytes()).isEqualTo(expected.length);
        assertThat(collector.truncated()).isEqualTo(expected.length > cap);
    }

    private static void assertWholeCharacters(List<String> chunks) {
        assertThat(chunks).allSatisfy(chunk -> {
            assertThat(chunk).isNotEmpty().doesNotContain("\uFFFD");
            assertThat(Character.isLowSurrogate(chunk.charAt(0))).as("chunk %s starts mid-pair", chunk).isFalse();
            assertThat(Character.isHighSurrogate(chunk.charAt(chunk.length() - 1))).as("chunk %s ends mid-pair", chunk).isFalse();
        });
    }
}
