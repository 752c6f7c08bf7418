package io.sandboxfactory.provider.docker;

import com.github.dockerjava.api.model.Frame;
import com.github.dockerjava.api.model.StreamType;
import io.sandboxfactory.api.support.OutputCollector;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

class ExecStreamTest {

    private final List<String> events = new ArrayList<>();
    private final OutputCollector stdout = new OutputCollector(1024, Optional.of(s -> events.add("out:" + s)));
    private final OutputCollector stderr = new OutputCollector(1024, Optional.of(s -> events.add("err:" + s)));
    private final ExecStream stream = new ExecStream(stdout, stderr, "signal\n");

    @Test
    void routesFramesToTheirStreamInArrivalOrder() throws Exception {
        stream.onNext(frame(StreamType.STDOUT, "a"));
        stream.onNext(frame(StreamType.STDERR, "b"));
        stream.onNext(frame(StreamType.RAW, "c"));
        stream.onComplete();

        assertThat(stream.await(Optional.of(Duration.ofSeconds(1)))).isTrue();
        assertThat(events).containsExactly("out:a", "err:b", "out:c");
        assertThat(stdout.text()).isEqualTo("ac");
        assertThat(stderr.text()).isEqualTo("b");
        assertThat(stream.failure()).isEmpty();
    }

    @Test
    void takesTheMissingDirectorySignalOnlyAsTheFirstStderrFrame() {
        stream.onNext(frame(StreamType.STDERR, "signal\n"));
        assertThat(stream.missingDirectory()).isTrue();
        assertThat(events).isEmpty();

        ExecStream other = new ExecStream(stdout, stderr, "signal\n");
        other.onNext(frame(StreamType.STDERR, "first\n"));
        other.onNext(frame(StreamType.STDERR, "signal\n"));
        assertThat(other.missingDirectory()).isFalse();
        assertThat(stderr.text()).isEqualTo("first\nsignal\n");
    }

    @Test
    void reportsTheErrorThatEndedTheStream() throws Exception {
        RuntimeException broken = new RuntimeException("socket closed");
        stream.onError(broken);
        assertThat(stream.await(Optional.empty())).isTrue();
        assertThat(stream.failure()).contains(broken);
    }

    @Test
    void waitingEndsWhenTheTimeoutPasses() throws Exception {
        assertThat(stream.await(Optional.of(Duration.ofMillis(20)))).isFalse();
    }

    @Test
    void closingDropsTheConnectionAndIgnoresWhatStillArrives() throws Exception {
        AtomicBoolean upstreamClosed = new AtomicBoolean();
        stream.onStart(() -> upstreamClosed.set(true));
        stream.close();
        stream.onNext(frame(StreamType.STDOUT, "late"));
        stream.onError(new IOException("closed by us"));

        assertThat(upstreamClosed).isTrue();
        assertThat(stream.await(Optional.of(Duration.ofSeconds(1)))).isTrue();
        assertThat(stdout.text()).isEmpty();
        assertThat(stream.failure()).isEmpty();
    }

    private static Frame frame(StreamType type, String text) {
        return new Frame(type, text.getBytes(StandardCharsets.UTF_8));
    }
}
