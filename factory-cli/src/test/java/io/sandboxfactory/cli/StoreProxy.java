package io.sandboxfactory.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay on a loopback port of its own to the shared test PostgreSQL server: {@link #cut()}
 * is an outage as the factory sees one (every connection dropped, new ones refused) without
 * stopping the server other tests use; {@link #restore()} brings the same port back.
 */
final class StoreProxy implements AutoCloseable {

    private final int targetPort;
    private final int port;
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private volatile ServerSocket server;

    StoreProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = listen(0);
        this.port = server.getLocalPort();
        accept(server);
    }

    int port() {
        return port;
    }

    private static ServerSocket listen(int port) throws IOException {
        ServerSocket socket = new ServerSocket();
        socket.setReuseAddress(true);
        socket.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), port));
        return socket;
    }

    private void accept(ServerSocket listening) {
        daemon(() -> {
            while (!listening.isClosed()) {
                try {
                    Socket client = listening.accept();
                    Socket upstream = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                    open.add(client);
                    open.add(upstream);
                    daemon(() -> pump(client, upstream));
                    daemon(() -> pump(upstream, client));
                } catch (IOException e) {
                    // Closed by cut(), or the server refused: the client sees its connection end.
                }
            }
        });
    }

    private static void pump(Socket from, Socket to) {
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            in.transferTo(out);
        } catch (IOException e) {
            // One side went away; closing both below ends the other direction too.
        } finally {
            closeQuietly(from);
            closeQuietly(to);
        }
    }

    /** Drops every relayed connection and refuses new ones. */
    void cut() {
        closeQuietly(server);
        open.forEach(StoreProxy::closeQuietly);
        open.clear();
    }

    /** Listens on the same port again. */
    void restore() throws IOException {
        server = listen(port);
        accept(server);
    }

    @Override
    public void close() {
        cut();
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // Already closed.
        }
    }

    private static void daemon(Runnable runnable) {
        Thread thread = new Thread(runnable, "store-proxy");
        thread.setDaemon(true);
        thread.start();
    }
}
