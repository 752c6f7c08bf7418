package io.sandboxfactory.core.egress;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Clock;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * The host-side HTTP proxy that enforces egress allow-lists: one per factory, on 127.0.0.1 at an
 * ephemeral port (or at {@code egress.proxyAddress}, for sandboxes that reach it over a network), serving every session by its own capability ({@link EgressSessions}). It binds on
 * first use, so a factory without an allow-list session opens no port.
 *
 * <p>{@code CONNECT host:port} is decided by the session's policy; an allowed tunnel must then
 * start with a TLS ClientHello whose SNI is the {@code CONNECT} host (no SNI, another name, or no
 * TLS at all closes it) before any byte goes upstream. A plain HTTP request in absolute form is
 * decided the same way and forwarded as one request with {@code Connection: close} and a {@code
 * Host} header made from its target, so a second name in the header cannot reach another site. A
 * refused request gets {@code 403} with one line naming the host and the rule; an unknown or
 * missing capability gets {@code 407}. Every decision is reported to {@link EgressEvents}.
 */
public final class EgressProxy implements Closeable {

    private static final Logger LOG = LoggerFactory.getLogger(EgressProxy.class);

    private final ProxyExchanges exchanges;
    private final Optional<InetSocketAddress> listen;
    private final ExecutorService threads = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "egress-proxy");
        t.setDaemon(true);
        return t;
    });
    private ServerSocket server;
    private boolean closed;

    /** @param listen where to listen; empty: an ephemeral port on 127.0.0.1 */
    public EgressProxy(EgressSessions sessions, EgressResolver resolver, EgressEvents events, Clock clock, Optional<InetSocketAddress> listen) {
        this.listen = Objects.requireNonNull(listen, "listen");
        this.exchanges = new ProxyExchanges(Objects.requireNonNull(sessions, "sessions"), Objects.requireNonNull(resolver, "resolver"), Objects.requireNonNull(events, "events"),
                Objects.requireNonNull(clock, "clock"), threads);
    }

    /** The proxy's port, binding it on the first call. */
    public synchronized int port() throws IOException {
        return address().getPort();
    }

    /** The address the proxy listens at, binding it on the first call. */
    public synchronized InetSocketAddress address() throws IOException {
        if (closed) {
            throw new IOException("The egress proxy is closed.");
        }
        if (server == null) {
            ServerSocket socket = new ServerSocket();
            try {
                socket.bind(listen.orElseGet(() -> new InetSocketAddress(InetAddress.getLoopbackAddress(), 0)));
            } catch (IOException e) {
                socket.close();
                throw new IOException("cannot listen at " + listen.map(a -> a.getAddress().getHostAddress() + ":" + a.getPort())
                        .orElse("127.0.0.1") + " (" + e.getMessage() + ")", e);
            }
            server = socket;
            threads.execute(() -> accept(socket));
            LOG.debug("Egress proxy listening on {}", socket.getLocalSocketAddress());
        }
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    /** The proxy URL a sandbox of the session holding {@code capability} uses: {@code http://<capability>:@<address>:<port>}. */
    public String url(String capability) throws IOException {
        InetSocketAddress address = address();
        return url(capability, address.getAddress().getHostAddress() + ":" + address.getPort());
    }

    /**
     * The proxy URL for {@code capability} at {@code hostAndPort}: the capability is the user name,
     * with an empty password, because git asks for the password of a proxy URL that names a user
     * without one (and fails where no terminal answers).
     */
    public static String url(String capability, String hostAndPort) {
        return "http://" + capability + ":@" + hostAndPort;
    }

    @Override
    public synchronized void close() {
        closed = true;
        if (server != null) {
            try {
                server.close();
            } catch (IOException e) {
                LOG.debug("Closing the egress proxy: {}", e.getMessage());
            }
        }
        threads.shutdownNow();
    }

    private void accept(ServerSocket socket) {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                threads.execute(() -> serve(client));
            } catch (IOException e) {
                if (!socket.isClosed()) {
                    LOG.warn("The egress proxy could not accept a connection: {}", e.getMessage());
                }
            } catch (java.util.concurrent.RejectedExecutionException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            exchanges.serve(ProxyClient.of(socket));
        } catch (IOException e) {
            LOG.debug("Egress proxy connection ended: {}", e.getMessage());
        }
    }

    /**
     * Serves one connection that came through session {@code sessionId}'s host channel (its sandbox
     * has no route to the proxy's port): only that session's capability is accepted on it.
     */
    public void serveChannel(String sessionId, InputStream in, OutputStream out) throws IOException {
        exchanges.serve(ProxyClient.ofChannel(sessionId, in, out));
    }
}
