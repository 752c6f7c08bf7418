package io.sandboxfactory.provider.docker;

import java.io.IOException;
import java.net.StandardProtocolFamily;
import java.net.UnixDomainSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Unix socket that forwards every connection to the Docker socket until {@link #close()} cuts
 * them all: a real transport whose failure a test controls.
 */
final class SocketProxy implements AutoCloseable {

    private final Path socket;
    private final ServerSocketChannel server;
    private final List<SocketChannel> open = new ArrayList<>();
    private boolean closed;
    private final Thread acceptor;

    SocketProxy(Path socket, Path target) throws IOException {
        this.socket = socket;
        this.server = ServerSocketChannel.open(StandardProtocolFamily.UNIX);
        server.bind(UnixDomainSocketAddress.of(socket));
        this.acceptor = new Thread(() -> acceptLoop(UnixDomainSocketAddress.of(target)), "socket-proxy");
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** The {@code unix://} URI of the proxy. */
    String uri() {
        return "unix://" + socket;
    }

    private void acceptLoop(UnixDomainSocketAddress target) {
        try {
            while (true) {
                SocketChannel client = server.accept();
                SocketChannel upstream = SocketChannel.open(target);
                synchronized (open) {
                    // A connection accepted while close() ran must not outlive it.
                    if (closed) {
                        client.close();
                        upstream.close();
                        return;
                    }
                    open.add(client);
                    open.add(upstream);
                }
                pump(client, upstream);
                pump(upstream, client);
            }
        } catch (IOException closed) {
            // close() shut the server socket.
        }
    }

    private static void pump(SocketChannel from, SocketChannel to) {
        Thread thread = new Thread(() -> {
            ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
            try {
                while (from.read(buffer) >= 0) {
                    buffer.flip();
                    while (buffer.hasRemaining()) {
                        to.write(buffer);
                    }
                    buffer.clear();
                }
                to.shutdownOutput();
            } catch (IOException cut) {
                // One side went away; close() tidies up.
            }
        }, "socket-proxy-pump");
        thread.setDaemon(true);
        thread.start();
    }

    /** Stops accepting and cuts every forwarded connection. */
    @Override
    public void close() throws IOException {
        server.close();
        synchronized (open) {
            closed = true;
            for (SocketChannel channel : open) {
                channel.close();
            }
        }
        Files.deleteIfExists(socket);
    }
}
