package io.sandboxfactory.core.internal.channel;

import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.capability.StreamingSandbox;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The channel whose FIFOs live in the sandbox, bridged by its streams; the "sandbox" here is this
 * host, its streams plain processes (the providers' streams have tests of their own).
 */
class BridgedChannelTest extends ChannelContract {

    private final String name = "test-" + UUID.randomUUID().toString().substring(0, 8);
    private final AtomicInteger streamsOpened = new AtomicInteger();
    private final List<BridgedChannel> opened = new ArrayList<>();

    /** Runs each stream's program as a process of this host. */
    private final StreamingSandbox host = argv -> {
        streamsOpened.incrementAndGet();
        try {
            Process process = new ProcessBuilder(argv).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            return new StreamingSandbox.SandboxStream() {
                @Override
                public OutputStream input() {
                    return process.getOutputStream();
                }

                @Override
                public InputStream output() {
                    return process.getInputStream();
                }

                @Override
                public void close() {
                    try {
                        process.getOutputStream().close();
                        process.getInputStream().close();
                    } catch (IOException e) {
                        // Already closed.
                    }
                }
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    };

    @Override
    SessionChannel open(ChannelHandler handler) throws IOException {
        BridgedChannel channel = BridgedChannel.open(host, name, handler);
        opened.add(channel);
        return channel;
    }

    @Override
    void awaitClosed(SessionChannel channel) throws InterruptedException {
        assertThat(((BridgedChannel) channel).awaitCleanup(Duration.ofMinutes(1))).as("the closed channel removed its FIFOs").isTrue();
    }

    @AfterEach
    void removeDirectory() throws Exception {
        opened.forEach(BridgedChannel::close);
        for (BridgedChannel channel : opened) {
            awaitClosed(channel);
        }
        HostChannel.remove(Path.of(BridgedChannel.ROOT, name));
    }

    @Test
    void theClientAndFifosLiveInTheSandboxAndEachConnectionHasAFreshBridge() throws Exception {
        try (SessionChannel channel = open(ECHO)) {
            assertThat(channel.client()).isEqualTo(BridgedChannel.ROOT + "/" + name + "/connect");
            int before = streamsOpened.get();
            for (int i = 0; i < 3; i++) {
                assertThat(client(channel, "x" + i + "\n", "h")).isEqualTo("h:x" + i + "\n");
            }
            // One install and a bridge per slot, then one new bridge per connection served (opened once the old one exited).
            long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            while (streamsOpened.get() - before < 3 && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(streamsOpened.get() - before).as("bridges opened after three connections").isGreaterThanOrEqualTo(3);
        }
    }

    @Test
    void aChannelWhoseSandboxIsGoneStopsServingSoTheNextStartMakesItAnew() throws Exception {
        AtomicBoolean gone = new AtomicBoolean();
        StreamingSandbox vanishing = argv -> {
            if (gone.get()) {
                throw new SandboxDestroyedException("Sandbox 'test' is gone.");
            }
            return host.openStream(argv);
        };
        BridgedChannel channel = BridgedChannel.open(vanishing, name, ECHO);
        opened.add(channel);
        assertThat(channel.serving()).isTrue();
        gone.set(true);
        // The bridge that serves this connection is followed by one the gone sandbox cannot start.
        assertThat(client(channel, "x\n", "h")).isEqualTo("h:x\n");
        long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
        while (channel.serving() && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
        assertThat(channel.serving()).as("serving after its sandbox was found gone").isFalse();
    }

    @Test
    void aSandboxThatCannotInstallTheChannelIsRefusedWithWhy() {
        StreamingSandbox broken = argv -> host.openStream(List.of("sh", "-c", "cat >/dev/null; exit 1"));
        assertThatThrownBy(() -> BridgedChannel.open(broken, name, ECHO))
                .isInstanceOf(IOException.class).hasMessageContaining("could not be installed");
    }

}
