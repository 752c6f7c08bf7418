package io.sandboxfactory.core.internal.config;

import io.sandboxfactory.api.SandboxException;
import io.sandboxfactory.api.error.StandardErrorCode;
import io.sandboxfactory.core.DiscoveredProvider;
import io.sandboxfactory.core.config.ConfigValue;
import io.sandboxfactory.core.config.EgressConfig;
import io.sandboxfactory.core.config.FactoryConfig;
import io.sandboxfactory.core.egress.EgressMode;
import io.sandboxfactory.core.internal.discovery.DiscoveredProviders;
import io.sandboxfactory.core.testing.MemoryConfig;
import io.sandboxfactory.core.testing.MemorySandboxProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code egress:} section: defaults, a valid allow-list, and every bad value reported at once, naming it. */
class EgressConfigTest {

    @TempDir
    Path tmp;

    private static DiscoveredProviders providers() {
        return new DiscoveredProviders(List.of(new DiscoveredProvider("local", new MemorySandboxProvider("local"),
                MemorySandboxProvider.class, MemoryConfig.class, "test", "")));
    }

    private ResolvedConfig resolve(String yaml) throws IOException {
        Path file = Files.writeString(tmp.resolve("factory.yaml"), yaml);
        return new ConfigResolver(tmp, "tester").resolveFile(new FactoryConfigLoader(tmp), file, Map.of(), ConfigOverrides.none(), providers());
    }

    @Test
    void withoutTheSectionTheProvidersOwnNetworkDecides() throws IOException {
        EgressConfig egress = resolve("provider: local\n").egress();
        assertThat(egress.egressMode()).isEqualTo(EgressMode.OPEN);
        assertThat(egress.allow()).isEmpty();
        assertThat(egress.proxyAddress()).isEmpty();
    }

    @Test
    void anAllowListWithPinnedNamesIsRead() throws IOException {
        EgressConfig egress = resolve("""
                provider: local
                egress:
                  mode: allowlist
                  allow: [api.github.com, "*.npmjs.org", "registry.example.test:8443"]
                  resolve: {registry.example.test: 127.0.0.3, v6.example.test: "::1"}
                  proxyAddress: 10.0.0.1:3128
                """).egress();
        assertThat(egress.egressMode()).isEqualTo(EgressMode.ALLOWLIST);
        assertThat(egress.policy(List.of("extra.test"), List.of()).decide("x.npmjs.org", 443).allowed()).isTrue();
        assertThat(egress.policy(List.of("extra.test"), List.of()).decide("extra.test", 443).allowed()).isTrue();
        assertThat(egress.policy(List.of(), List.of()).decide("registry.example.test", 443).allowed()).isFalse();
        assertThat(egress.resolvedAddresses()).containsEntry("registry.example.test", InetAddress.getByName("127.0.0.3"));
        assertThat(egress.proxyAddress()).contains("10.0.0.1:3128");
    }

    @Test
    void everyBadValueIsInvalidConfigNamingIt() {
        assertThatThrownBy(() -> resolve("""
                provider: local
                egress:
                  mode: closed
                  allow: ["https://api.github.com", "a.*.org", "", "host:99999", "has space.org"]
                  resolve: {registry.example.test: registry.internal}
                  proxyAddress: proxy.internal:3128
                """))
                .isInstanceOfSatisfying(SandboxException.class,
                        e -> assertThat(e.errorCode()).isEqualTo(StandardErrorCode.INVALID_CONFIG.toErrorCode()))
                .hasMessageContaining("The configuration has 8 errors")
                .hasMessageContaining("'proxy.internal:3128' for configuration key 'egress.proxyAddress'")
                .hasMessageContaining("Invalid value 'closed' for configuration key 'egress.mode' in " + tmp.resolve("factory.yaml")
                        + "; it must be one of none, allowlist, open.")
                .hasMessageContaining("'https://api.github.com' for configuration key 'egress.allow[0]'")
                .hasMessageContaining("'a.*.org' for configuration key 'egress.allow[1]'")
                .hasMessageContaining("'' for configuration key 'egress.allow[2]'")
                .hasMessageContaining("'host:99999' for configuration key 'egress.allow[3]'")
                .hasMessageContaining("'has space.org' for configuration key 'egress.allow[4]'")
                .hasMessageContaining("'registry.internal' for configuration key 'egress.resolve.registry.example.test' in " + tmp.resolve("factory.yaml")
                        + "; it must be an IPv4 or IPv6 address, not a name.");
    }

    @Test
    void theEnvironmentOverridesModeAllowListAndProxyAddress() throws IOException {
        Path file = Files.writeString(tmp.resolve("factory.yaml"), "provider: local\negress: {allow: [file.test]}\n");
        EgressConfig egress = new ConfigResolver(tmp, "tester").resolveFile(new FactoryConfigLoader(tmp), file,
                Map.of("FACTORY_EGRESS_MODE", "allowlist", "FACTORY_EGRESS_ALLOW", "[a.test, '*.b.test:443']",
                        "FACTORY_EGRESS_PROXY_ADDRESS", "10.0.0.9:3128"), ConfigOverrides.none(), providers()).egress();
        assertThat(egress).isEqualTo(new EgressConfig("allowlist", List.of("a.test", "*.b.test:443"), Map.of(), Optional.of("10.0.0.9:3128")));
        assertThatThrownBy(() -> new ConfigResolver(tmp, "tester").resolveFile(new FactoryConfigLoader(tmp), file,
                Map.of("FACTORY_EGRESS_MODE", "sometimes"), ConfigOverrides.none(), providers()))
                .hasMessageContaining("'sometimes'").hasMessageContaining("egress.mode").hasMessageContaining("FACTORY_EGRESS_MODE");
    }

    @Test
    void theEffectiveConfigShowsTheSection() throws IOException {
        ResolvedConfig resolved = resolve("provider: local\negress: {mode: allowlist, allow: [api.github.com]}\n");
        Map<String, ConfigValue> values = new java.util.LinkedHashMap<>();
        new ConfigExplainer().explain(resolved, FactoryConfig.defaults(), Optional.empty(), Map.of(), ConfigOverrides.none(),
                new DiscoveredProviders(List.of()), key -> "flag").values().forEach(v -> values.put(v.key(), v));
        assertThat(values.get("egress.mode").value()).isEqualTo("allowlist");
    }
}
