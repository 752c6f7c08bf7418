package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.support.OutputCollector;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class ChannelReplyTest {

    private static final String NONCE = "n0nce";
    private static final String SIGNAL = "sandbox-factory:cwd-missing:tok\n";

    private final List<String> streamed = new ArrayList<>();
    private final OutputCollector stdout = new OutputCollector(1 << 20, Optional.of(chunk -> streamed.add("out:" + chunk)));
    private final OutputCollector stderr = new OutputCollector(1 << 20, Optional.of(chunk -> streamed.add("err:" + chunk)));
    private final ChannelReply reply = new ChannelReply(NONCE, SIGNAL, stdout, stderr);

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String end() {
        return new String(ChannelProtocol.terminator(NONCE), StandardCharsets.UTF_8);
    }

    @Test
    void completesWhenBothStreamsEndedAndTheStatusArrived() throws Exception {
        assertThat(reply.onStdout(bytes("hello"))).isTrue();
        assertThat(reply.onStderr(bytes("oops" + end()))).isTrue();
        assertThat(reply.await(Optional.of(Duration.ZERO))).isFalse();
        assertThat(reply.onStdout(bytes(end() + "4"))).isTrue();
        assertThat(reply.await(Optional.of(Duration.ZERO))).isFalse();
        assertThat(reply.onStdout(bytes("2\n"))).isTrue();
        assertThat(reply.await(Optional.of(Duration.ZERO))).isTrue();
        assertThat(reply.exitCode()).contains(42);
        stdout.finish();
        assertThat(stdout.text()).isEqualTo("hello");
        assertThat(stderr.text()).isEqualTo("oops");
        assertThat(streamed).containsExactly("out:hello", "err:oops");
    }

    @Test
    void findsTheTerminatorWhereverTheChunksSplitIt() throws Exception {
        byte[] all = bytes("data\u0001\u0002sf-end:other\n\u0001" + end() + "0\n");
        for (int split = 0; split <= all.length; split++) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            ChannelReply.TerminatedStream stream = new ChannelReply.TerminatedStream(ChannelProtocol.terminator(NONCE), out::write);
            byte[] second = Arrays.copyOfRange(all, split, all.length);
            byte[] rest = stream.accept(Arrays.copyOfRange(all, 0, split));
            // Once ended, the stream takes nothing more: what follows is the caller's.
            rest = rest == null ? stream.accept(second) : concat(rest, second);
            assertThat(rest).as("split at %d", split).isEqualTo(bytes("0\n"));
            assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo("data\u0001\u0002sf-end:other\n\u0001");
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] joined = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, joined, a.length, b.length);
        return joined;
    }

    @Test
    void aChannelThatBreaksAfterTheReplyCompletedDoesNotFailIt() throws Exception {
        reply.onStderr(bytes(end()));
        reply.onStdout(bytes(end() + "0\n"));
        reply.fail(new IllegalStateException("closed afterwards"));
        assertThat(reply.await(Optional.of(Duration.ZERO))).isTrue();
        assertThat(reply.failure()).isEmpty();
        assertThat(reply.exitCode()).contains(0);
    }

    @Test
    void outputAfterTheStatusIsNotExplained() {
        reply.onStderr(bytes(end()));
        assertThat(reply.onStdout(bytes(end() + "0\nmore"))).isFalse();
    }

    @Test
    void stderrAfterItsTerminatorIsNotExplained() {
        assertThat(reply.onStderr(bytes(end() + "x"))).isFalse();
    }

    @Test
    void aStderrOfExactlyTheSignalMeansTheDirectoryIsMissing() {
        reply.onStderr(bytes(SIGNAL.substring(0, 5)));
        reply.onStderr(bytes(SIGNAL.substring(5) + end()));
        assertThat(reply.missingDirectory()).isTrue();
        assertThat(stderr.text()).isEmpty();
        assertThat(streamed).isEmpty();
    }

    @Test
    void aStartOfTheSignalThatGoesElsewhereIsOutput() {
        reply.onStderr(bytes("sandbox"));
        assertThat(streamed).isEmpty();
        reply.onStderr(bytes("-like" + end()));
        assertThat(reply.missingDirectory()).isFalse();
        assertThat(stderr.text()).isEqualTo("sandbox-like");

        ChannelReply shortOne = new ChannelReply(NONCE, SIGNAL, stdout, stderr);
        shortOne.onStderr(bytes("sand" + end()));
        assertThat(shortOne.missingDirectory()).isFalse();
        assertThat(stderr.text()).isEqualTo("sandbox-likesand");
    }

    @Test
    void aFailureEndsTheWaitAndLateOutputOfAnAbandonedReplyIsDropped() throws Exception {
        reply.fail(new IllegalStateException("gone"));
        assertThat(reply.await(Optional.empty())).isTrue();
        assertThat(reply.failure()).get().extracting(Throwable::getMessage).isEqualTo("gone");
        // Closing the broken channel fails the reply again; the cause that broke it stays.
        reply.fail(new IllegalStateException("closed afterwards"));
        assertThat(reply.failure()).get().extracting(Throwable::getMessage).isEqualTo("gone");

        ChannelReply abandoned = new ChannelReply(NONCE, SIGNAL, stdout, stderr);
        abandoned.abandon();
        assertThat(abandoned.onStdout(bytes("late"))).isTrue();
        assertThat(abandoned.failure()).isEmpty();
        assertThat(stdout.text()).isEmpty();
    }
}
