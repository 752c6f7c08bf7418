package io.sandboxfactory.core.egress;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Copies bytes both ways between a client and an upstream until both sides ended: each direction
 * half-closes its target when its source ends, so a request body's end reaches the server while
 * the response still flows back.
 */
final class Splice {

    private Splice() {
    }

    /** Copies {@code fromClient} to {@code upstream} and {@code upstream} to {@code client}; returns when both ended. */
    static void run(ExecutorService threads, InputStream fromClient, ProxyClient client, Socket upstream) throws IOException {
        Future<?> up = threads.submit(() -> {
            copy(fromClient, upstream.getOutputStream());
            shutdownOutput(upstream);
            return null;
        });
        try {
            copy(upstream.getInputStream(), client.out());
            client.endOutput();
            // The upstream is done: a client that keeps its side open (keep-alive) gets a moment, then the caller closes both.
            up.get(client.grace().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            // One side broke off or lingers: closing both sockets (the caller's) ends the other direction too.
        } finally {
            up.cancel(true);
        }
    }

    private static Void copy(InputStream in, OutputStream out) {
        byte[] buffer = new byte[16 * 1024];
        try {
            int n;
            while ((n = in.read(buffer)) != -1) {
                out.write(buffer, 0, n);
                out.flush();
            }
        } catch (IOException e) {
            // A reset or a closed socket ends this direction; the other ends with it.
        }
        return null;
    }

    private static void shutdownOutput(Socket socket) {
        try {
            if (!socket.isClosed() && !socket.isOutputShutdown()) {
                socket.shutdownOutput();
            }
        } catch (IOException e) {
            // Already gone.
        }
    }
}
