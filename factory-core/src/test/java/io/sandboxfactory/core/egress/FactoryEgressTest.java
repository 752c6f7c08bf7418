package io.sandboxfactory.core.egress;

import com.sun.net.httpserver.HttpServer;
import io.sandboxfactory.api.CommandOptions;
import io.sandboxfactory.api.CommandResult;
import io.sandboxfactory.api.InvalidInputException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.config.EgressConfig;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionSpec;
import io.sandboxfactory.core.testing.Git;
import io.sandboxfactory.store.api.JournalEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.time.Duration;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

/**
 * Egress through a whole factory as a host builds it: the local provider (bubblewrap, network none),
 * mode allowlist, the proxy the factory runs, its decisions in the session's journal, and live
 * changes through the factory's API.
 */
class FactoryEgressTest {

    @TempDir
    Path tmp;

    private SandboxFactory factory(String mode, String network) {
        return SandboxFactory.builder().environment(Map.of()).stateDirectory(tmp.resolve("state"))
                .config(FactoryConfig.builder().provider("local")
                        .providerSection("local", Map.of("isolation", "namespaces", "network", network))
                        .egress(new EgressConfig(mode, List.of("allowed.test"), Map.of("allowed.test", "127.0.0.2", "denied.test",
                                "127.0.0.2", "api.example.test", "127.0.0.2"), Optional.empty()))
                        .build())
                .build();
    }

    @Test
    void aSandboxWithoutNetworkReachesAllowedHostsThroughTheChannelOnlyAndALiveAllowAppliesAtOnce() throws Exception {
        Path repo = Git.bareRepository(tmp.resolve("app.git"));
        HttpServer http = Upstreams.http("hello from");
        Upstreams.Tls https = Upstreams.https(Files.createDirectories(tmp.resolve("tls")));
        int port = http.getAddress().getPort();
        try (SandboxFactory factory = factory("allowlist", "none")) {
            SessionHandle handle = factory.openSession(SessionSpec.builder("f1").repository(repo.toString()).branch("b")
                    .egressAllow(List.of("*.example.test")).build());
            assertThat(handle.sandbox().getEnv().get("HTTPS_PROXY")).matches("http://[A-Za-z0-9_-]+:@127\\.0\\.0\\.1:3128");

            assertThat(curl(handle, "http://allowed.test:" + port + "/")).isEqualTo("0 hello from allowed.test:" + port + "\n200");
            // HTTPS: CONNECT, the ClientHello's SNI checked, the bytes spliced, through the sandbox's listener and the channel.
            assertThat(curl(handle, "https://api.example.test:" + https.port() + "/"))
                    .as(() -> factory.sessionStore().journal("f1", 20).stream().map(JournalEntry::command).toList().toString())
                    .isEqualTo("0 secure\n200");
            assertThat(curl(handle, "http://denied.test:" + port + "/")).contains("Egress to denied.test:" + port
                    + " is denied for session 'f1': no allow rule matches.").endsWith("403");
            // No route but the proxy: the same address without it is unreachable from the sandbox.
            assertThat(curl(handle, "--noproxy", "*", "http://127.0.0.2:" + port + "/")).startsWith("7 ");
            assertThat(factory.sessionStore().journal("f1", 20)).filteredOn(e -> e.origin().equals("egress"))
                    .extracting(JournalEntry::command, JournalEntry::exitCode).containsExactly(
                            tuple("allowed GET allowed.test:" + port + " (allow allowed.test)", 0),
                            tuple("allowed CONNECT api.example.test:" + https.port() + " (allow *.example.test)", 0),
                            tuple("denied GET denied.test:" + port + " (no allow rule matches)", 1));

            EgressPolicy changed = factory.changeEgress("f1", List.of("denied.test:" + port), List.of("api.example.test"));
            assertThat(changed.decide("denied.test", port).allowed()).isTrue();
            assertThat(curl(handle, "http://denied.test:" + port + "/")).endsWith("200");
            assertThat(curl(handle, "https://api.example.test:" + https.port() + "/")).contains("CONNECT tunnel failed, response 403");
            assertThat(factory.egress("f1").allow()).extracting(EgressRule::text).containsExactly("allowed.test", "*.example.test",
                    "denied.test:" + port);
            assertThat(factory.egress("f1").decide("api.example.test", 443)).isEqualTo(new EgressDecision(false, "deny api.example.test"));
            assertThatThrownBy(() -> factory.changeEgress("f1", List.of("bad host"), List.of()))
                    .isInstanceOfSatisfying(InvalidInputException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.INVALID_CONFIG.toErrorCode()))
                    .hasMessageStartingWith("--allow 'bad host' is invalid;");
            assertThat(factory.egress("f1").allow()).hasSize(3);

            // Destroying the session removes its channel's directory with the capability.
            Path channels = tmp.resolve("state").resolve("channels");
            try (java.util.stream.Stream<Path> before = java.nio.file.Files.list(channels)) {
                assertThat(before.map(p -> p.getFileName().toString())).anyMatch(name -> name.startsWith("egress-"));
            }
            factory.retire("f1", io.sandboxfactory.core.retire.RetireMode.DESTROY);
            try (java.util.stream.Stream<Path> after = java.nio.file.Files.list(channels)) {
                assertThat(after.map(p -> p.getFileName().toString())).noneMatch(name -> name.startsWith("egress-"));
            }
        } finally {
            http.stop(0);
            https.server().stop(0);
        }
    }

    /** curl in the session's sandbox with its proxy variables: {@code <exit> <body>\n<status>}. */
    private static String curl(SessionHandle handle, String... args) {
        List<String> command = new java.util.ArrayList<>(List.of("-sS", "-k", "--max-time", "20", "-w", "\\n%{http_code}"));
        command.addAll(List.of(args));
        CommandResult result = handle.executeCommand("curl", command, CommandOptions.builder().timeout(Duration.ofSeconds(60)).build());
        return result.exitCode() + " " + result.stdout().strip() + (result.exitCode() == 0 ? "" : " " + result.stderr().strip());
    }

    @Test
    void aConfiguredProxyAddressIsForSandboxesWithARouteOnly() throws Exception {
        Path repo = Git.bareRepository(tmp.resolve("app.git"));
        int free;
        try (java.net.ServerSocket probe = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.4"))) {
            free = probe.getLocalPort();
        }
        FactoryConfig config = FactoryConfig.builder().provider("local")
                .providerSection("local", Map.of("isolation", "namespaces", "network", "none"))
                .egress(new EgressConfig("allowlist", List.of("allowed.test"), Map.of(), Optional.of("127.0.0.4:" + free))).build();
        try (SandboxFactory factory = SandboxFactory.builder().environment(Map.of()).stateDirectory(tmp.resolve("state")).config(config).build()) {
            SessionHandle handle = factory.openSession(SessionSpec.builder("f3").repository(repo.toString()).branch("b").build());
            // A bubblewrap sandbox goes through its listener and channel whatever the proxy's address (that is for pods).
            String url = handle.sandbox().getEnv().get("HTTP_PROXY");
            assertThat(url).endsWith("@127.0.0.1:3128");
            assertThat(config.egress().proxySocket()).contains(new java.net.InetSocketAddress("127.0.0.4", free));
        }
        assertThat(new EgressConfig("open", List.of(), Map.of(), Optional.of("10.0.0.2:3128")).proxySocket())
                .as("only an allow-list has a proxy for the provider to open a way to").isEmpty();
    }

    @Test
    void theHostsNetworkIsRefusedForAnAllowList() throws Exception {
        Path repo = Git.bareRepository(tmp.resolve("app.git"));
        try (SandboxFactory factory = factory("allowlist", "host")) {
            assertThatThrownBy(() -> factory.openSession(SessionSpec.builder("f2").repository(repo.toString()).branch("b").build()))
                    .isInstanceOf(InvalidInputException.class)
                    .hasMessageContaining("local: isolation none or network host");
            assertThat(factory.sessionStore().find("f2")).isEmpty();
        }
    }
}
