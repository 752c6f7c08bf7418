package io.sandboxfactory.provider.kubernetes;

import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * A mock-server websocket listener whose {@code onClosed} and {@code onFailure} run on {@code closer},
 * not on the mock server's event loop; every other callback runs where it was called, in order.
 *
 * <p>Why: fabric8's {@code WatchEventsListener} (kubernetes-server-mock 8.0.0) waits in {@code
 * onClosed} and {@code onFailure} for its send executor to finish, on the event loop. When a watch
 * event is being sent as the client closes the watch, that send waits for its write, which only the
 * same event loop can complete. The loop then stalls for the send's 30-second limit, and every other
 * request of the mock waits with it: an exec's websocket upgrade gave up after 10 seconds under load
 * ({@code KubernetesSandboxMockTest.aTimeoutKillsTheWholeProcessTreeInThePod}, stress loop, 2026-12-02).
 */
final class OffLoopCloseListener extends WebSocketListener {

    private final WebSocketListener delegate;
    private final Executor closer;

    OffLoopCloseListener(WebSocketListener delegate, Executor closer) {
        this.delegate = delegate;
        this.closer = closer;
    }

    @Override
    public void onBeforeAccept(WebSocket ws, Response response) {
        delegate.onBeforeAccept(ws, response);
    }

    @Override
    public void onOpen(WebSocket ws, Response response) {
        delegate.onOpen(ws, response);
    }

    @Override
    public void onMessage(WebSocket ws, String text) {
        delegate.onMessage(ws, text);
    }

    @Override
    public void onMessage(WebSocket ws, ByteString bytes) {
        delegate.onMessage(ws, bytes);
    }

    @Override
    public void onMessage(WebSocket ws, byte[] bytes) {
        delegate.onMessage(ws, bytes);
    }

    @Override
    public void onPing(WebSocket ws, byte[] bytes) {
        delegate.onPing(ws, bytes);
    }

    @Override
    public void onClosing(WebSocket ws, int code, String reason) {
        delegate.onClosing(ws, code, reason);
    }

    @Override
    public void onClosed(WebSocket ws, int code, String reason) {
        offLoop(() -> delegate.onClosed(ws, code, reason));
    }

    @Override
    public void onFailure(WebSocket ws, Throwable cause, Response response) {
        offLoop(() -> delegate.onFailure(ws, cause, response));
    }

    private void offLoop(Runnable callback) {
        try {
            closer.execute(callback);
        } catch (RejectedExecutionException e) {
            // The cluster is closing: nothing waits on the loop any more, and the listener must still end its executor.
            callback.run();
        }
    }
}
