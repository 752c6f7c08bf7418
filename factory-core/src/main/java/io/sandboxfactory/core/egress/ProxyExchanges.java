package io.sandboxfactory.core.egress;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.Optional;
import java.util.concurrent.ExecutorService;

/**
 * What {@link EgressProxy} does with one connection: reads the request, decides it by the session's
 * policy, and tunnels ({@code CONNECT}, its ClientHello's SNI checked first) or forwards it (plain
 * HTTP), answering {@code 403}, {@code 407} or {@code 502} itself; every decision is reported.
 */
final class ProxyExchanges {

    private static final Logger LOG = LoggerFactory.getLogger(ProxyExchanges.class);
    private static final int HEAD_TIMEOUT_MILLIS = 30_000;
    private static final int CONNECT_TIMEOUT_MILLIS = 10_000;
    private static final String REALM = "Proxy-Authenticate: Basic realm=\"sandbox-factory egress\"\r\n";

    private final EgressSessions sessions;
    private final EgressResolver resolver;
    private final EgressEvents events;
    private final Clock clock;
    private final ExecutorService threads;

    ProxyExchanges(EgressSessions sessions, EgressResolver resolver, EgressEvents events, Clock clock, ExecutorService threads) {
        this.sessions = sessions;
        this.resolver = resolver;
        this.events = events;
        this.clock = clock;
        this.threads = threads;
    }

    /** Serves one connection; the caller closes it. */
    void serve(ProxyClient client) throws IOException {
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
