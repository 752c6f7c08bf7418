package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The mock's watch listener (fabric8's own, from its CRUD dispatcher through {@link FakeKubelet})
 * closed while one of its events is still being sent: the close must leave the calling thread, the
 * mock's event loop, free at once, since only that loop can finish the send.
 */
class OffLoopCloseListenerTest {

    private final ThreadPoolExecutor closer = new ThreadPoolExecutor(0, 1, 1, TimeUnit.SECONDS, new LinkedBlockingQueue<>());

    @TempDir
    Path volumes;

    @AfterEach
    void stopCloser() {
        closer.shutdownNow();
    }

    @Test
    void aWatchClosedWhileAnEventIsBeingSentDoesNotHoldTheEventLoop() throws Exception {
        FakeKubelet kubelet = new FakeKubelet(new KubernetesMixedDispatcher(new HashMap<>()), volumes, closer);
        MockResponse upgrade = kubelet.dispatch(request(HttpMethod.GET, "/api/v1/namespaces/ns/pods?watch=true", ""));
        WebSocketListener watch = upgrade.getWebSocketListener();
        assertThat(watch).isInstanceOf(OffLoopCloseListener.class);
        LoopBoundSocket socket = new LoopBoundSocket();
        watch.onOpen(socket, upgrade);

        // A new pod: the watch's executor sends the ADDED event, and the send waits for the loop.
        kubelet.dispatch(request(HttpMethod.POST, "/api/v1/namespaces/ns/pods",
                "{\"apiVersion\":\"v1\",\"kind\":\"Pod\",\"metadata\":{\"name\":\"p\",\"namespace\":\"ns\"}}"));
        assertThat(socket.sendEntered.await(30, TimeUnit.SECONDS)).as("the ADDED event is being sent").isTrue();

        // This thread plays the event loop: the client's close frame arrives.
        watch.onClosing(socket, 1000, "");
        watch.onClosed(socket, 1000, "");
        boolean sendStillWaiting = socket.sendReturned.getCount() == 1;
        socket.loopFree.countDown();

        assertThat(sendStillWaiting).as("onClosed returned while the send still waited for the loop").isTrue();
        assertThat(socket.sendReturned.await(30, TimeUnit.SECONDS)).isTrue();
        closer.shutdown();
        assertThat(closer.awaitTermination(70, TimeUnit.SECONDS)).as("the listener's own onClosed ran and ended").isTrue();
        assertThat(closer.getCompletedTaskCount()).isEqualTo(1);
        assertThat(socket.closed.getCount()).as("the listener closed its socket").isZero();
    }

    private static RecordedRequest request(HttpMethod method, String path, String body) {
        return new RecordedRequest("HTTP/1.1", method, path, Headers.builder().add("Content-Type", "application/json").build(),
                new Buffer().writeUtf8(body));
    }

    /**
     * A server socket whose writes complete only when the event loop is free, as the mock's own does
     * (its send waits up to 30 seconds for the write, then gives up).
     */
    private static final class LoopBoundSocket implements WebSocket {
        final CountDownLatch sendEntered = new CountDownLatch(1);
        final CountDownLatch loopFree = new CountDownLatch(1);
        final CountDownLatch sendReturned = new CountDownLatch(1);
        final CountDownLatch closed = new CountDownLatch(1);

        @Override
        public RecordedRequest request() {
            return null;
        }

        @Override
        public boolean send(String text) {
            sendEntered.countDown();
            try {
                return loopFree.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            } finally {
                sendReturned.countDown();
            }
        }

        @Override
        public boolean send(byte[] bytes) {
            return send(new String(bytes, java.nio.charset.StandardCharsets.UTF_8));
        }

        @Override
        public boolean close(int code, String reason) {
            closed.countDown();
            return true;
        }
    }
}
