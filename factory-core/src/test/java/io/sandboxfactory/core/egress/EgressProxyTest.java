package io.sandboxfactory.core.egress;

import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The proxy against upstream servers on 127.0.0.2 (plain HTTP and HTTPS), names pinned by the resolver: loopback only. */
class EgressProxyTest {

    private static HttpServer http;
    private static HttpsServer https;
    private static SSLContext clientTls;

    private final List<EgressEvent> events = new CopyOnWriteArrayList<>();
    private final AtomicReference<EgressPolicy> policy = new AtomicReference<>();
    private EgressSessions sessions;
    private EgressProxy proxy;
    private String capability;

    @BeforeAll
    static void servers(@TempDir Path dir) throws Exception {
        http = Upstreams.http("plain");
        Upstreams.Tls tls = Upstreams.https(dir);
        https = tls.server();
        clientTls = tls.client();
    }

    @AfterAll
    static void stopServers() {
        http.stop(0);
        https.stop(0);
    }

    @BeforeEach
    void proxy() throws Exception {
        InetAddress upstream = InetAddress.getByName("127.0.0.2");
        sessions = new EgressSessions();
        proxy = new EgressProxy(sessions, new EgressResolver(Map.of("api.example.test", upstream, "other.example.test", upstream,
                "plain.example.test", upstream, "cdn.assets.test", upstream)), events::add, Clock.systemUTC(), Optional.empty());
        policy.set(policy("api.example.test", "plain.example.test:" + http.getAddress().getPort(), "*.assets.test"));
        capability = sessions.register("s1", policy::get);
    }

    @AfterEach
    void close() {
        proxy.close();
    }

    @Test
    void anAllowedHttpsHostIsTunnelledAndJournaled() throws Exception {
        assertThat(httpsGet(capability, "api.example.test", "api.example.test")).isEqualTo("secure");
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.sessionId()).isEqualTo("s1");
            assertThat(e.host()).isEqualTo("api.example.test");
            assertThat(e.port()).isEqualTo(https.getAddress().getPort());
            assertThat(e.allowed()).isTrue();
            assertThat(e.rule()).isEqualTo("allow api.example.test");
        });
    }

    @Test
    void aWildcardRuleAllowsNamesBelowTheDomain() throws Exception {
        assertThat(httpsConnectStatus(capability, "cdn.assets.test")).startsWith("HTTP/1.1 200");
    }

    @Test
    void aDeniedHostGets403NamingHostAndRuleAndAnEvent() throws Exception {
        String response = rawConnect(capability, "other.example.test:" + https.getAddress().getPort());
        assertThat(response).startsWith("HTTP/1.1 403")
                .contains("Egress to other.example.test:" + https.getAddress().getPort() + " is denied for session 's1': no allow rule matches.");
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.allowed()).isFalse();
            assertThat(e.host()).isEqualTo("other.example.test");
            assertThat(e.describe()).startsWith("denied CONNECT other.example.test:");
        });
    }

    @Test
    void aPortRuleAllowsOnlyItsPort() throws Exception {
        int port = http.getAddress().getPort();
        assertThat(plainGet(capability, "http://plain.example.test:" + port + "/x", "evil.test")).startsWith("HTTP/1.1 200")
                .endsWith("plain plain.example.test:" + port);
        assertThat(plainGet(capability, "http://plain.example.test:" + (port == 65535 ? 1 : port + 1) + "/x", "plain.example.test"))
                .startsWith("HTTP/1.1 403");
    }

    @Test
    void anSniOtherThanTheConnectHostIsRefusedBeforeAnyByteGoesUpstream() {
        // Allowed by name, but the TLS client names another host (which the server's certificate would serve).
        assertThatThrownBy(() -> httpsGet(capability, "api.example.test", "other.example.test")).isInstanceOf(IOException.class);
        assertThat(events).singleElement().satisfies(e -> {
            assertThat(e.allowed()).isFalse();
            assertThat(e.rule()).isEqualTo("SNI other.example.test does not match the CONNECT host");
        });
    }

    @Test
    void aTunnelWithoutTlsIsRefused() throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(("CONNECT api.example.test:" + https.getAddress().getPort() + " HTTP/1.1\r\n" + auth(capability) + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            out.write("GET / HTTP/1.1\r\nHost: api.example.test\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII))
                    .isEqualTo("HTTP/1.1 200 Connection established\r\n\r\n");
        }
        assertThat(events).singleElement().satisfies(e -> assertThat(e.rule()).isEqualTo("no TLS ClientHello"));
    }

    @Test
    void aLiveAllowTakesEffectOnTheNextConnection() throws Exception {
        String target = "other.example.test:" + https.getAddress().getPort();
        assertThat(rawConnect(capability, target)).startsWith("HTTP/1.1 403");
        policy.updateAndGet(p -> p.allowing(EgressRule.parse("allow", "other.example.test")));
        assertThat(httpsGet(capability, "other.example.test", "other.example.test")).isEqualTo("secure");
        policy.updateAndGet(p -> p.denying(EgressRule.parse("deny", "other.example.test")));
        assertThat(rawConnect(capability, target)).startsWith("HTTP/1.1 403").contains("deny other.example.test");
    }

    @Test
    void anUnknownOrRevokedCapabilityGets407() throws Exception {
        String target = "api.example.test:" + https.getAddress().getPort();
        assertThat(rawConnect("not-a-capability", target)).startsWith("HTTP/1.1 407");
        assertThat(rawConnect(null, target)).startsWith("HTTP/1.1 407").contains("Proxy-Authenticate: Basic");
        String other = sessions.register("s2", () -> policy("nothing.test"));
        assertThat(other).isNotEqualTo(capability);
        assertThat(rawConnect(other, target)).startsWith("HTTP/1.1 403").contains("session 's2'");
        sessions.revoke("s1");
        assertThat(rawConnect(capability, target)).startsWith("HTTP/1.1 407");
        assertThat(events).extracting(EgressEvent::sessionId).containsExactly("s2");
    }

    @Test
    void aClosedProxyLeavesNoRoute() throws Exception {
        int port = proxy.port();
        proxy.close();
        assertThatThrownBy(() -> connectFromAnotherPort(port)).isInstanceOf(ConnectException.class);
        assertThatThrownBy(proxy::port).isInstanceOf(IOException.class);
    }

    /**
     * Connects to {@code port} on loopback from a local port other than it: the freed port is an
     * ephemeral one, and a client that happened to be given it as its own would connect to itself
     * (TCP's simultaneous open), which is no route to the proxy (the suite once failed so).
     */
    private static void connectFromAnotherPort(int port) throws IOException {
        while (true) {
            try (Socket socket = new Socket()) {
                socket.bind(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                if (socket.getLocalPort() != port) {
                    socket.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port));
                    return;
                }
            }
        }
    }

    @Test
    void aConfiguredAddressIsWhereTheProxyListensAndWhatItsUrlNames() throws Exception {
        int free;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, InetAddress.getByName("127.0.0.3"))) {
            free = probe.getLocalPort();
        }
        try (EgressProxy bound = new EgressProxy(sessions, new EgressResolver(Map.of()), events::add, Clock.systemUTC(),
                Optional.of(new InetSocketAddress(InetAddress.getByName("127.0.0.3"), free)))) {
            assertThat(bound.url(capability)).isEqualTo("http://" + capability + ":@127.0.0.3:" + free);
            try (Socket socket = new Socket(InetAddress.getByName("127.0.0.3"), free)) {
                socket.setSoTimeout(10_000);
                socket.getOutputStream().write(("CONNECT nothing.test:443 HTTP/1.1\r\n" + auth(capability) + "\r\n")
                        .getBytes(StandardCharsets.US_ASCII));
                assertThat(new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).startsWith("HTTP/1.1 403");
            }
        }
    }

    @Test
    void anAllowedNameThatResolvesToThisHostIsRefusedUnlessPinned() throws Exception {
        policy.set(policy("localhost"));
        String response = rawConnect(capability, "localhost:" + https.getAddress().getPort());
        assertThat(response).startsWith("HTTP/1.1 403").contains("localhost resolves to 127.0.0.1, an address of this host or its link");
        assertThat(events).singleElement().satisfies(e -> assertThat(e.allowed()).isFalse());
        // Pinned names (api.example.test -> 127.0.0.2 above) and allowed literals are meant: they pass.
        policy.set(policy("127.0.0.2"));
        assertThat(httpsConnectStatus(capability, "127.0.0.2")).startsWith("HTTP/1.1 200");
    }

    @Test
    void aMalformedRequestIs400() throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            socket.getOutputStream().write("nonsense\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 400");
        }
    }

    private static EgressPolicy policy(String... allow) {
        return new EgressPolicy(EgressMode.ALLOWLIST, java.util.Arrays.stream(allow).map(p -> EgressRule.parse("allow", p)).toList(), List.of());
    }

    private String httpsGet(String capability, String connectHost, String sni) throws Exception {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port());
        socket.setSoTimeout(10_000);
        String status = connect(socket, capability, connectHost + ":" + https.getAddress().getPort());
        assertThat(status).startsWith("HTTP/1.1 200");
        try (SSLSocket tls = (SSLSocket) clientTls.getSocketFactory().createSocket(socket, sni, https.getAddress().getPort(), true)) {
            SSLParameters parameters = tls.getSSLParameters();
            parameters.setServerNames(List.of(new SNIHostName(sni)));
            tls.setSSLParameters(parameters);
            tls.getOutputStream().write(("GET / HTTP/1.1\r\nHost: " + sni + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String response = new String(tls.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return response.substring(response.indexOf("\r\n\r\n") + 4);
        }
    }

    private String httpsConnectStatus(String capability, String host) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            socket.setSoTimeout(10_000);
            return connect(socket, capability, host + ":" + https.getAddress().getPort());
        }
    }

    private String rawConnect(String capability, String target) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("CONNECT " + target + " HTTP/1.1\r\n" + (capability == null ? "" : auth(capability)) + "\r\n")
                    .getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private String plainGet(String capability, String url, String hostHeader) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.port())) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(("GET " + url + " HTTP/1.1\r\nHost: " + hostHeader + "\r\n" + auth(capability)
                    + "Proxy-Connection: keep-alive\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** Sends a CONNECT and reads the response head, leaving the socket at the tunnel's first byte. */
    private static String connect(Socket socket, String capability, String target) throws IOException {
        socket.getOutputStream().write(("CONNECT " + target + " HTTP/1.1\r\n" + auth(capability) + "\r\n").getBytes(StandardCharsets.US_ASCII));
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        InputStream in = socket.getInputStream();
        while (!head.toString(StandardCharsets.US_ASCII).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b < 0) {
                break;
            }
            head.write(b);
        }
        return head.toString(StandardCharsets.US_ASCII);
    }

    private static String auth(String capability) {
        return "Proxy-Authorization: Basic " + Base64.getEncoder().encodeToString((capability + ":").getBytes(StandardCharsets.UTF_8)) + "\r\n";
    }
}
