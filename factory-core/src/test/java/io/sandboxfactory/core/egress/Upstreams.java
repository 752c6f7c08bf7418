package io.sandboxfactory.core.egress;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;

import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upstream servers for egress tests on 127.0.0.2 (loopback only; names reach them through {@code
 * egress.resolve}): plain HTTP answering with the Host header it got, and HTTPS with a certificate
 * for {@code api.example.test} and {@code other.example.test} that keytool makes for the test.
 */
final class Upstreams {

    private static final String PASSWORD = "changeit";

    /** A started HTTPS server and a client context that trusts its certificate. */
    record Tls(HttpsServer server, SSLContext client) {
        int port() {
            return server.getAddress().getPort();
        }
    }

    private Upstreams() {
    }

    static InetAddress address() throws IOException {
        return InetAddress.getByName("127.0.0.2");
    }

    /** Answers {@code <prefix> <Host header>}. */
    static HttpServer http(String prefix) throws IOException {
        HttpServer http = HttpServer.create(new InetSocketAddress(address(), 0), 0);
        http.createContext("/", exchange -> reply(exchange, prefix + " " + exchange.getRequestHeaders().getFirst("Host")));
        http.start();
        return http;
    }

    /** Answers {@code secure}, with a certificate made in {@code dir}. */
    static Tls https(Path dir) throws Exception {
        Path keystore = dir.resolve("server.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(), "-genkeypair",
                "-alias", "upstream", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2", "-dname", "CN=api.example.test",
                "-ext", "SAN=dns:api.example.test,dns:other.example.test", "-storetype", "PKCS12", "-keystore", keystore.toString(),
                "-storepass", PASSWORD, "-keypass", PASSWORD).redirectErrorStream(true).start();
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(keytool.exitValue()).as(new String(keytool.getInputStream().readAllBytes())).isZero();
        KeyStore store = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keystore)) {
            store.load(in, PASSWORD.toCharArray());
        }
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(store, PASSWORD.toCharArray());
        SSLContext serverTls = SSLContext.getInstance("TLS");
        serverTls.init(keys.getKeyManagers(), null, null);
        TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        trust.init(store);
        SSLContext clientTls = SSLContext.getInstance("TLS");
        clientTls.init(null, trust.getTrustManagers(), null);
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
