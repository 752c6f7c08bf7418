package io.sandboxfactory.core.session;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class RedactedStreamTest {

    private static final String SECRET = "pw with spaces/9f8e7d";
    private static final String GITHUB = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8";
    private static final Redaction REDACTION = Redaction.of(List.of(SECRET, "other-secret-1"));

    @Test
    void aSecretSplitAcrossTwoChunksIsMaskedWhole() {
        List<String> out = new ArrayList<>();
        RedactedStream stream = REDACTION.streamTo(out::add);

        stream.accept("login: pw with sp");
        stream.accept("aces/9f8e7d done\n");
        stream.flush();

        assertThat(String.join("", out)).isEqualTo("login: **** done\n");
        assertThat(out).noneMatch(chunk -> chunk.contains("pw with sp") || chunk.contains("aces/9f8e7d"));
    }

    @Test
    void aTokenShapeSplitAcrossChunksIsMaskedWhole() {
        List<String> out = new ArrayList<>();
        RedactedStream stream = Redaction.shapes().streamTo(out::add);

        stream.accept("token " + GITHUB.substring(0, 10));
        stream.accept(GITHUB.substring(10, 25));
        stream.accept(GITHUB.substring(25) + " end");
        stream.flush();

        assertThat(String.join("", out)).isEqualTo("token **** end");
        assertThat(out).noneMatch(chunk -> chunk.contains("ghp_"));
    }

    @Test
    void aPromptWithoutNewlineReachesTheSinkAtOnceWhileItCannotStartASecret() {
        List<String> out = new ArrayList<>();
        RedactedStream stream = REDACTION.streamTo(out::add);

        stream.accept("Password for deploy: ");
        assertThat(String.join("", out)).isEqualTo("Password for deploy: ");
        stream.accept("Continue? [y/N]");
        assertThat(String.join("", out)).isEqualTo("Password for deploy: Continue? [y/N]");
        // A tail that begins a secret or a token shape is held until it cannot be one.
        stream.accept(" pw with");
        assertThat(String.join("", out)).as("the beginning of a secret is held").isEqualTo("Password for deploy: Continue? [y/N] ");
        stream.accept(" git");
        assertThat(String.join("", out)).as("the beginning of a token shape is held").isEqualTo("Password for deploy: Continue? [y/N] pw with ");
        stream.accept("!\n");
        assertThat(String.join("", out)).isEqualTo("Password for deploy: Continue? [y/N] pw with git!\n");
    }

    @Test
    void textIsPassedOnWhileTheStreamRunsAndTheHeldTailAtTheEnd() {
        List<String> out = new ArrayList<>();
        RedactedStream stream = REDACTION.streamTo(out::add);

        stream.accept("line one is long enough to go through\n");
        assertThat(String.join("", out)).as("only the tail that may start a secret is held").startsWith("line one is long");

        stream.accept("last");
        stream.flush();
        assertThat(String.join("", out)).isEqualTo("line one is long enough to go through\nlast");
    }

    @Test
    void anyChunkingGivesWhatTheWholeTextGives() {
        String text = "a " + SECRET + " b other-secret-1\n" + GITHUB + " c " + SECRET + SECRET + " end other-secret-";
        String whole = REDACTION.apply(text);
        Random random = new Random(46);
        for (int split = 0; split <= text.length(); split++) {
            assertThat(streamed(List.of(text.substring(0, split), text.substring(split)))).as("split at %d", split).isEqualTo(whole);
        }
        for (int round = 0; round < 200; round++) {
            List<String> chunks = new ArrayList<>();
            int at = 0;
            while (at < text.length()) {
                int next = Math.min(text.length(), at + 1 + random.nextInt(12));
                chunks.add(text.substring(at, next));
                at = next;
            }
            assertThat(streamed(chunks)).as("chunks %s", chunks).isEqualTo(whole);
        }
    }

    private static String streamed(List<String> chunks) {
        StringBuilder out = new StringBuilder();
        RedactedStream stream = REDACTION.streamTo(out::append);
        chunks.forEach(stream);
        stream.flush();
        return out.toString();
    }
}
