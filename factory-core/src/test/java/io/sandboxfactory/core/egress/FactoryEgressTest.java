package io.sandboxfactory.core.egress;

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

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
                        .egress(new EgressConfig(mode, List.of("allowed.test"), Map.of("denied.test", "127.0.0.2"), Optional.empty()))
                        .build())
                .build();
    }

    @Test
    void aDeniedHostIsJournaledAndALiveAllowIsKeptWithTheSession() throws Exception {
        Path repo = Git.bareRepository(tmp.resolve("app.git"));
        try (SandboxFactory factory = factory("allowlist", "none")) {
            SessionHandle handle = factory.openSession(SessionSpec.builder("f1").repository(repo.toString()).branch("b")
                    .egressAllow(List.of("*.extra.test")).build());
            String proxy = handle.sandbox().getEnv().get("HTTPS_PROXY");
            assertThat(proxy).startsWith("http://").contains("@127.0.0.1:");

            // The sandbox has no route to the host's loopback yet (the host channel brings it), so the host asks in its stead.
            Process curl = new ProcessBuilder("curl", "-s", "-o", "/dev/null", "-w", "%{http_code}", "--proxy", proxy,
                    "http://denied.test:9/").redirectErrorStream(true).start();
            assertThat(new String(curl.getInputStream().readAllBytes(), StandardCharsets.UTF_8)).isEqualTo("403");
            assertThat(factory.sessionStore().journal("f1", 10)).filteredOn(e -> e.origin().equals("egress"))
                    .extracting(JournalEntry::command, JournalEntry::exitCode)
                    .containsExactly(org.assertj.core.groups.Tuple.tuple("denied GET denied.test:9 (no allow rule matches)", 1));

            EgressPolicy changed = factory.changeEgress("f1", List.of("denied.test:9"), List.of("x.extra.test"));
            assertThat(changed.decide("denied.test", 9).allowed()).isTrue();
            assertThat(factory.egress("f1").allow()).extracting(EgressRule::text).containsExactly("allowed.test", "*.extra.test", "denied.test:9");
            assertThat(factory.egress("f1").decide("x.extra.test", 443)).isEqualTo(new EgressDecision(false, "deny x.extra.test"));
            assertThatThrownBy(() -> factory.changeEgress("f1", List.of("bad host"), List.of()))
                    .isInstanceOfSatisfying(InvalidInputException.class,
                            e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.INVALID_CONFIG.toErrorCode()))
                    .hasMessageStartingWith("--allow 'bad host' is invalid;");
            assertThat(factory.egress("f1").allow()).hasSize(3);
        }
    }

    @Test
    void aConfiguredProxyAddressIsWhereSandboxesAreSentAndWhatTheProviderIsTold() throws Exception {
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
            assertThat(handle.sandbox().getEnv().get("HTTP_PROXY")).endsWith("@127.0.0.4:" + free);
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
