package io.sandboxfactory.core.session;

import com.sun.net.httpserver.HttpServer;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.FactorySandbox;
import io.sandboxfactory.api.FactorySandboxContext;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.MastraSandbox;
import io.sandboxfactory.api.SandboxCapability;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.config.EgressConfig;
import io.sandboxfactory.core.egress.EgressEvent;
import io.sandboxfactory.core.egress.EgressRule;
import io.sandboxfactory.core.retire.RetireMode;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.core.testing.SessionHarness;
import io.sandboxfactory.core.testing.ShellSandboxes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A session in egress mode allowlist, end to end with real {@code curl} commands: their proxy
 * variables come from the session's env overlay and reach the factory's proxy, which decides per
 * the configured and the session's own rules (kept in the store), live. The sandboxes here are
 * host shells that claim network isolation, so that curl can reach the proxy on the host's
 * loopback without the host channel; the upstream is on 127.0.0.2, its names pinned by {@code egress.resolve}.
 */
class SessionEgressTest {

    @TempDir
    Path tmp;

    private HttpServer upstream;
    private int port;
    private Path remote;

    @BeforeEach
    void upstream() throws IOException {
        upstream = HttpServer.create(new InetSocketAddress(InetAddress.getByName("127.0.0.2"), 0), 0);
        upstream.createContext("/", exchange -> {
            byte[] body = ("hello from " + exchange.getRequestHeaders().getFirst("Host")).getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        });
        upstream.start();
        port = upstream.getAddress().getPort();
        remote = Git.bareRepository(tmp.resolve("remote/app.git"));
    }

    @AfterEach
    void stop() {
        upstream.stop(0);
    }

    private EgressConfig allowlist() {
        return new EgressConfig("allowlist", List.of("allowed.test"), Map.of("allowed.test", "127.0.0.2", "extra.test", "127.0.0.2",
                "later.test", "127.0.0.2"), Optional.empty());
    }

    /** Host shells that say their sandboxes have no network of their own, as bubblewrap's do. */
    private FactorySandbox isolatedShells() {
        ShellSandboxes shells = new ShellSandboxes(tmp.resolve("shells"));
        return new FactorySandbox() {
            @Override
            public MastraSandbox<?> create(FactorySandboxContext ctx) {
                return shells.create(ctx);
            }

            @Override
            public Set<SandboxCapability> capabilities() {
                Set<SandboxCapability> capabilities = EnumSet.copyOf(shells.capabilities());
                capabilities.add(SandboxCapability.NETWORK_ISOLATION);
                return capabilities;
            }
        };
    }

    private static String curl(SessionHandle handle, String host) {
        CommandResult result = handle.executeCommand("curl", List.of("-s", "-S", "--max-time", "20", "-w", "\\n%{http_code}",
                "http://" + host + "/"), CommandOptions.builder().timeout(Duration.ofSeconds(60)).build());
        return result.exitCode() + " " + result.stdout().strip();
    }

    private SessionSpec spec(String id, String... allow) {
        return SessionSpec.builder(id).repository(remote.toString()).branch("work").egressAllow(List.of(allow)).build();
    }

    @Test
    void sandboxCommandsReachAllowedHostsOnlyThroughTheProxyAndALiveAllowAppliesAtOnce() throws IOException {
        try (SessionHarness factory = new SessionHarness(tmp.resolve("state"), allowlist(), p -> isolatedShells())) {
            SessionHandle handle = factory.open(spec("e1", "extra.test:" + port));
            Map<String, String> env = handle.sandbox().getEnv();
            assertThat(env.get("HTTP_PROXY")).matches("http://[A-Za-z0-9_-]+:@127\\.0\\.0\\.1:" + factory.egressProxy.port());
            assertThat(env).containsEntry("https_proxy", env.get("HTTP_PROXY")).containsEntry("NO_PROXY", "localhost,127.0.0.1,::1");

            assertThat(curl(handle, "allowed.test:" + port)).isEqualTo("0 hello from allowed.test:" + port + "\n200");
            assertThat(curl(handle, "extra.test:" + port)).endsWith("200");
            assertThat(curl(handle, "later.test:" + port)).contains("Egress to later.test:" + port
                    + " is denied for session 'e1': no allow rule matches.").endsWith("403");
            assertThat(factory.egressEvents).extracting(EgressEvent::describe).containsExactly(
                    "allowed GET allowed.test:" + port + " (allow allowed.test)",
                    "allowed GET extra.test:" + port + " (allow extra.test:" + port + ")",
                    "denied GET later.test:" + port + " (no allow rule matches)");

            // Live, without a restart: the next connection follows the store.
            factory.egressRules.change("e1", List.of("later.test"), List.of("allowed.test"));
            assertThat(curl(handle, "later.test:" + port)).endsWith("200");
            assertThat(curl(handle, "allowed.test:" + port)).contains("deny allowed.test").endsWith("403");
        }

        // Another process (a restart) reads the same rules from the store.
        try (SessionHarness again = new SessionHarness(tmp.resolve("state"), allowlist(), p -> isolatedShells())) {
            assertThat(again.egressRules.policy("e1").allow()).extracting(EgressRule::text)
                    .containsExactly("extra.test:" + port, "later.test");
            assertThat(again.egressRules.policy("e1").deny()).extracting(EgressRule::text).containsExactly("allowed.test");
            SessionHandle handle = again.open(spec("e1"));
            assertThat(curl(handle, "later.test:" + port)).endsWith("200");
            String oldUrl = handle.sandbox().getEnv().get("HTTP_PROXY");

            again.retire("e1", RetireMode.DESTROY);
            assertThat(again.egressSessions.registered("e1")).isFalse();
            assertThat(again.egressRules.policy("e1").allow()).extracting(EgressRule::text).containsExactly("allowed.test");
            // The retired session's capability opens nothing any more.
            ProcessBuilder curl = new ProcessBuilder("curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--proxy", oldUrl,
                    "http://later.test:" + port + "/").redirectErrorStream(true);
            assertThat(new String(curl.start().getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("407");
        }
    }

    @Test
    void withTheProxyDownNoDirectRouteAppears() {
        try (SessionHarness factory = new SessionHarness(tmp.resolve("state"), allowlist(), p -> isolatedShells())) {
            SessionHandle handle = factory.open(spec("e2"));
            assertThat(curl(handle, "allowed.test:" + port)).endsWith("200");
            factory.egressProxy.close();
            // curl follows the proxy variables, finds nothing listening and fails; it never tries the upstream itself.
            assertThat(curl(handle, "127.0.0.2:" + port)).startsWith("7 ");
            assertThat(factory.egressEvents).hasSize(1);
        }
    }

    @Test
    void aProviderWithANetworkRouteOfItsOwnIsRefusedAndNothingIsCreated() {
        try (SessionHarness factory = new SessionHarness(tmp.resolve("state"), allowlist(), p -> new ShellSandboxes(tmp.resolve("shells")))) {
            assertThatThrownBy(() -> factory.open(spec("e3")))
                    .isInstanceOfSatisfying(InvalidInputException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.INVALID_CONFIG.toErrorCode()))
                    .hasMessageStartingWith("Session 'e3' is refused: egress.mode allowlist needs sandboxes without a network route of"
                            + " their own, but provider 'local' as configured gives them one");
            assertThat(factory.store.find("e3")).isEmpty();
            assertThat(tmp.resolve("shells/e3")).doesNotExist();
        }
    }

    @Test
    void modeOpenLeavesTheNetworkToTheProviderAndSetsNoProxy() {
        try (SessionHarness factory = new SessionHarness(tmp.resolve("state"), EgressConfig.defaults(),
                p -> new ShellSandboxes(tmp.resolve("shells")))) {
            SessionHandle handle = factory.open(spec("e4", "ignored.test"));
            assertThat(handle.sandbox().getEnv()).doesNotContainKeys("HTTP_PROXY", "https_proxy", "NO_PROXY");
            assertThat(factory.egressSessions.registered("e4")).isFalse();
        }
    }

    @Test
    void aBadSessionPatternIsInvalidConfigNamingIt() {
        assertThatThrownBy(() -> spec("e5", "https://api.example.com"))
                .isInstanceOfSatisfying(InvalidInputException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.INVALID_CONFIG.toErrorCode()))
                .hasMessageStartingWith("egress allow 'https://api.example.com' is invalid;");
    }
}
