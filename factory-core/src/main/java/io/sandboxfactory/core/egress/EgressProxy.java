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
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
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
    private static final int HEAD_TIMEOUT_MILLIS = 30_000;
    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    private static final String REALM = "Proxy-Authenticate: Basic realm=\"sandbox-factory egress\"\r\n";

    private final EgressSessions sessions;
    private final EgressResolver resolver;
    private final EgressEvents events;
    private final Clock clock;
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
        this.sessions = Objects.requireNonNull(sessions, "sessions");
        this.resolver = Objects.requireNonNull(resolver, "resolver");
        this.events = Objects.requireNonNull(events, "events");
        this.clock = Objects.requireNonNull(clock, "clock");
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

    /** The proxy URL a sandbox of the session holding {@code capability} uses: {@code http://<capability>@<address>:<port>}. */
    public String url(String capability) throws IOException {
        InetSocketAddress address = address();
        return "http://" + capability + "@" + address.getAddress().getHostAddress() + ":" + address.getPort();
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
            serve(ProxyClient.of(socket));
        } catch (IOException e) {
            LOG.debug("Egress proxy connection ended: {}", e.getMessage());
        }
    }

    /**
     * Serves one connection that came through session {@code sessionId}'s host channel (its sandbox
     * has no route to the proxy's port): only that session's capability is accepted on it.
     */
    public void serveChannel(String sessionId, InputStream in, OutputStream out) throws IOException {
        serve(ProxyClient.ofChannel(sessionId, in, out));
    }

    /** Serves one connection; the caller closes it. */
    private void serve(ProxyClient client) throws IOException {
        try {
            client.readTimeout(HEAD_TIMEOUT_MILLIS);
            InputStream in = client.in();
            ProxyRequest request = ProxyRequest.read(in).orElse(null);
            if (request == null) {
                return;
            }
            EgressSessions.Registration session = request.capability().flatMap(sessions::find).filter(client::accepts).orElse(null);
            if (session == null) {
                respond(client, 407, "Proxy Authentication Required", REALM,
                        "The egress proxy needs the session's capability as the proxy URL's user name.");
                return;
            }
            if (request.isConnect()) {
                new Tunnel(session, request.connectAuthority()).run(client, in);
            } else {
                forward(session, request, client, in);
            }
        } catch (ProxyRequest.BadRequest e) {
            respondQuietly(client, e.status, e.status == 431 ? "Request Header Fields Too Large" : "Bad Request", e.getMessage());
        }
    }

    /** A CONNECT: decided, then its ClientHello checked, then spliced. */
    private final class Tunnel {
        private final EgressSessions.Registration session;
        private final ProxyRequest.Authority target;

        Tunnel(EgressSessions.Registration session, ProxyRequest.Authority target) {
            this.session = session;
            this.target = target;
        }

        void run(ProxyClient client, InputStream in) throws IOException {
            EgressDecision decision = session.policy().get().decide(target.host(), target.port());
            if (!decision.allowed()) {
                deny(client, session, "CONNECT", target, decision.rule());
                return;
            }
            Optional<InetAddress> address = resolve(client, session, "CONNECT", target);
            if (address.isEmpty()) {
                return;
            }
            OutputStream out = client.out();
            out.write("HTTP/1.1 200 Connection established\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            byte[] hello = new byte[ClientHello.MAX_BYTES];
            int length = 0;
            ClientHello.Result parsed = ClientHello.Result.INCOMPLETE;
            while (parsed.status() == ClientHello.Status.INCOMPLETE && length < hello.length) {
                int n = in.read(hello, length, hello.length - length);
                if (n < 0) {
                    break;
                }
                length += n;
                parsed = ClientHello.parse(hello, length);
            }
            String refusal = parsed.status() != ClientHello.Status.COMPLETE ? "no TLS ClientHello"
                    : parsed.serverName().isEmpty() ? "no SNI"
                    : !EgressRule.normalize(parsed.serverName().get()).equals(EgressRule.normalize(target.host()))
                    ? "SNI " + parsed.serverName().get() + " does not match the CONNECT host" : null;
            if (refusal != null) {
                record(session, "CONNECT", target, false, refusal);
                return;
            }
            record(session, "CONNECT", target, true, decision.rule());
            try (Socket upstream = connect(address.get(), target)) {
                upstream.getOutputStream().write(hello, 0, length);
                client.readTimeout(0);
                Splice.run(threads, in, client, upstream);
            }
        }
    }

    private void forward(EgressSessions.Registration session, ProxyRequest request, ProxyClient client, InputStream in) throws IOException {
        java.net.URI uri = request.absoluteTarget();
        ProxyRequest.Authority target = ProxyRequest.authority(uri);
        EgressDecision decision = session.policy().get().decide(target.host(), target.port());
        if (!decision.allowed()) {
            deny(client, session, request.method(), target, decision.rule());
            return;
        }
        Optional<InetAddress> address = resolve(client, session, request.method(), target);
        if (address.isEmpty()) {
            return;
        }
        record(session, request.method(), target, true, decision.rule());
        Socket upstream;
        try {
            upstream = connect(address.get(), target);
        } catch (IOException e) {
            respond(client, 502, "Bad Gateway", "", "The egress proxy could not reach " + target + ": " + e.getMessage() + ".");
            return;
        }
        try (upstream) {
            StringBuilder head = new StringBuilder();
            String path = uri.getRawPath() == null || uri.getRawPath().isEmpty() ? "/" : uri.getRawPath();
            head.append(request.method()).append(' ').append(path).append(uri.getRawQuery() == null ? "" : "?" + uri.getRawQuery())
                    .append(" HTTP/1.1\r\n");
            head.append("Host: ").append(uri.getRawAuthority()).append("\r\n");
            for (String header : request.headers()) {
                if (!hopByHop(header)) {
                    head.append(header).append("\r\n");
                }
            }
            head.append("Connection: close\r\n\r\n");
            upstream.getOutputStream().write(head.toString().getBytes(StandardCharsets.ISO_8859_1));
            client.readTimeout(0);
            Splice.run(threads, in, client, upstream);
        }
    }

    /** Headers for this hop only, and the client's Host (replaced by the target's, which the rules decided on). */
    private static boolean hopByHop(String header) {
        String name = header.substring(0, Math.max(0, header.indexOf(':'))).strip().toLowerCase(java.util.Locale.ROOT);
        return switch (name) {
            case "host", "connection", "keep-alive", "proxy-authorization", "proxy-connection", "proxy-authenticate", "te", "trailer",
                 "upgrade" -> true;
            default -> false;
        };
    }

    /** The target's address; empty after answering the client when the name is refused (403) or unknown (502). */
    private Optional<InetAddress> resolve(ProxyClient client, EgressSessions.Registration session, String method, ProxyRequest.Authority target)
            throws IOException {
        try {
            return Optional.of(resolver.resolve(target.host()));
        } catch (EgressResolver.Refused e) {
            deny(client, session, method, target, e.getMessage());
        } catch (IOException e) {
            record(session, method, target, false, e.getMessage());
            respond(client, 502, "Bad Gateway", "", "The egress proxy could not resolve " + target.host() + ": " + e.getMessage() + ".");
        }
        return Optional.empty();
    }

    private Socket connect(InetAddress address, ProxyRequest.Authority target) throws IOException {
        Socket upstream = new Socket();
        try {
            upstream.connect(new InetSocketAddress(address, target.port()), CONNECT_TIMEOUT_MILLIS);
            return upstream;
        } catch (IOException e) {
            upstream.close();
            throw e;
        }
    }

    private void deny(ProxyClient client, EgressSessions.Registration session, String method, ProxyRequest.Authority target, String rule)
            throws IOException {
        record(session, method, target, false, rule);
        respond(client, 403, "Forbidden", "", "Egress to " + target + " is denied for session '" + session.sessionId() + "': " + rule + ".");
    }

    private void record(EgressSessions.Registration session, String method, ProxyRequest.Authority target, boolean allowed, String rule) {
        try {
            events.record(new EgressEvent(session.sessionId(), clock.instant(), method, target.host(), target.port(), allowed, rule));
        } catch (RuntimeException e) {
            LOG.warn("An egress event of session '{}' could not be recorded: {}", session.sessionId(), e.getMessage());
        }
    }

    private static void respond(ProxyClient client, int status, String reason, String extraHeaders, String line) throws IOException {
        byte[] body = (line + "\n").getBytes(StandardCharsets.UTF_8);
        String head = "HTTP/1.1 " + status + " " + reason + "\r\n" + extraHeaders + "Content-Type: text/plain; charset=utf-8\r\n"
                + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n";
        OutputStream out = client.out();
        out.write(head.getBytes(StandardCharsets.US_ASCII));
        out.write(body);
        out.flush();
    }

    private static void respondQuietly(ProxyClient client, int status, String reason, String line) {
        try {
            respond(client, status, reason, "", line);
        } catch (SocketException e) {
            // The client is gone already.
        } catch (IOException e) {
            LOG.debug("Egress proxy could not answer: {}", e.getMessage());
        }
    }
}
