package io.sandboxfactory.bench.egress;

import io.sandboxfactory.core.testing.SelfSignedTls;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.sandboxfactory.bench.report.Group;
import io.sandboxfactory.bench.stats.Contender;
import io.sandboxfactory.bench.stats.Interleaved;
import io.sandboxfactory.core.egress.EgressMode;
import io.sandboxfactory.core.egress.EgressPolicy;
import io.sandboxfactory.core.egress.EgressProxy;
import io.sandboxfactory.core.egress.EgressResolver;
import io.sandboxfactory.core.egress.EgressRule;
import io.sandboxfactory.core.egress.EgressSessions;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the egress proxy adds to one HTTPS request: a new TLS connection and one GET to a server on
 * 127.0.0.2, directly and through {@link EgressProxy} ({@code CONNECT}, the policy, the ClientHello's
 * SNI check, the splice). The server's certificate is made for the run with the JDK's keytool.
 */
public final class EgressOverhead implements AutoCloseable {

    private static final String HOST = "upstream.bench.test";

    private final HttpsServer server;
    private final SSLContext client;
    private final EgressProxy proxy;
    private final String authorization;

    private EgressOverhead(HttpsServer server, SSLContext client, EgressProxy proxy, String capability) {
        this.server = server;
        this.client = client;
        this.proxy = proxy;
        this.authorization = "Proxy-Authorization: Basic "
                + Base64.getEncoder().encodeToString((capability + ":").getBytes(StandardCharsets.UTF_8)) + "\r\n";
    }

    /** The server and the proxy, with a certificate made in {@code directory}; an {@link IOException} says why not (no keytool). */
    public static EgressOverhead start(Path directory) throws Exception {
        SelfSignedTls tls = SelfSignedTls.make(directory, List.of(HOST));
        SSLContext serverTls = tls.server();
        SSLContext clientTls = tls.client();

        InetAddress upstream = InetAddress.getByName("127.0.0.2");
        HttpsServer server = HttpsServer.create(new InetSocketAddress(upstream, 0), 50);
        server.setHttpsConfigurator(new HttpsConfigurator(serverTls));
        server.createContext("/", exchange -> {
            byte[] body = "ok".getBytes(StandardCharsets.US_ASCII);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        EgressSessions sessions = new EgressSessions();
        EgressPolicy policy = new EgressPolicy(EgressMode.ALLOWLIST, List.of(EgressRule.parse("allow", HOST)), List.of());
        String capability = sessions.register("bench", () -> policy);
        EgressProxy proxy = new EgressProxy(sessions, new EgressResolver(Map.of(HOST, upstream)), event -> { }, Clock.systemUTC(),
                Optional.empty());
        return new EgressOverhead(server, clientTls, proxy, capability);
    }

    /** One HTTPS request per round, directly and through the proxy; direct is the baseline. */
    public Group measure(Interleaved rounds) throws Exception {
        int port = server.getAddress().getPort();
        return new Group("HTTPS request, new connection", "direct", rounds.run(List.of(
                Contender.of("direct", () -> get(new Socket(server.getAddress().getAddress(), port))),
                Contender.of("egress proxy", () -> get(tunnel(port))))));
    }

    private Socket tunnel(int port) throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        socket.getOutputStream().write(("CONNECT " + HOST + ":" + port + " HTTP/1.1\r\n" + authorization + "\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        StringBuilder head = new StringBuilder();
        InputStream in = socket.getInputStream();
        while (head.indexOf("\r\n\r\n") < 0) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.append((char) b);
        }
        if (!head.toString().startsWith("HTTP/1.1 200")) {
            socket.close();
            throw new IOException("The egress proxy refused the bench's tunnel: " + head.toString().strip());
        }
        return socket;
    }

    private void get(Socket plain) throws IOException {
        plain.setSoTimeout(30_000);
        try (SSLSocket tls = (SSLSocket) client.getSocketFactory().createSocket(plain, HOST, plain.getPort(), true)) {
            SSLParameters parameters = tls.getSSLParameters();
            parameters.setServerNames(List.of(new SNIHostName(HOST)));
            tls.setSSLParameters(parameters);
            tls.getOutputStream().write(("GET / HTTP/1.1\r\nHost: " + HOST + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String response = new String(tls.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            if (!response.startsWith("HTTP/1.1 200") || !response.endsWith("ok")) {
                throw new IOException("The HTTPS request got: " + response.lines().findFirst().orElse("nothing"));
            }
        }
    }

    @Override
    public void close() {
        proxy.close();
        server.stop(0);
    }
}
