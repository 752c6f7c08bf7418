package io.sandboxfactory.core.egress;

import io.sandboxfactory.core.testing.SelfSignedTls;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import javax.net.ssl.SSLContext;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream servers for egress tests on 127.0.0.2 (loopback only; names reach them through {@code
 * egress.resolve}): plain HTTP answering with the Host header it got, and HTTPS with a certificate
 * for {@code api.example.test} and {@code other.example.test} that keytool makes for the test.
 * Public for the egress tests of other providers' sandboxes ({@code DockerEgressIT}).
 */
public final class Upstreams {

    /** A started HTTPS server and a client context that trusts its certificate. */
    public record Tls(HttpsServer server, SSLContext client) {
        public int port() {
            return server.getAddress().getPort();
        }
    }

    private Upstreams() {
    }

    public static InetAddress address() throws IOException {
        return InetAddress.getByName("127.0.0.2");
    }

    /** Answers {@code <prefix> <Host header>}. */
    public static HttpServer http(String prefix) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(address(), 0), 0);
        http.createContext("/", exchange -> reply(exchange, prefix + " " + exchange.getRequestHeaders().getFirst("Host")));
        http.start();
        return http;
    }

    /** Answers {@code secure}, with a certificate made in {@code dir}. */
    public static Tls https(Path dir) throws Exception {
        SelfSignedTls tls = SelfSignedTls.make(dir, List.of("api.example.test", "other.example.test"));
        SSLContext serverTls = tls.server();
        SSLContext clientTls = tls.client();
        HttpsServer https = HttpsServer.create(new InetSocketAddress(address(), 0), 0);
        https.setHttpsConfigurator(new HttpsConfigurator(serverTls));
        https.createContext("/", exchange -> reply(exchange, "secure"));
        https.start();
        return new Tls(https, clientTls);
    }

    private static void reply(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
