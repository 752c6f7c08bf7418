package io.sandboxfactory.provider.docker;

import io.sandboxfactory.api.InvalidConfigValueException;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DockerProviderConfigTest {

    @Test
    void absentFieldsTakeTheirDefaults() {
        DockerProviderConfig config = DockerProviderConfig.builder().build();
        assertThat(config.host()).isEqualTo("unix:///var/run/docker.sock");
        assertThat(config.image()).isEqualTo("sandbox-factory/test-base:latest");
        assertThat(config.cpus()).isNull();
        assertThat(config.memoryBytes()).isEmpty();
        assertThat(config.networkMode()).isEqualTo("none");
        assertThat(config.networkIsolated()).isTrue();
        assertThat(config.labels()).isEmpty();
        assertThat(config.workingDirectory()).isEqualTo("/workspace");
        assertThat(config.pinnedApiVersion()).isEmpty();
        assertThat(config.useEnvironment()).isFalse();
        assertThat(config.env()).isEmpty();
        assertThat(config.init()).isTrue();
        assertThat(config.execChannel()).isTrue();
        assertThat(config).isEqualTo(DockerProviderConfig.defaults());
    }

    @Test
    void keepsGivenValues() {
        DockerProviderConfig config = DockerProviderConfig.builder().host("tcp://127.0.0.1:2375").image("alpine/git:2.45")
                .cpus(1.5).memory("1g").networkMode("host").labels(Map.of("team", "blue")).workingDirectory("/src")
                .apiVersion("1.41").useEnvironment(true).env(Map.of("A", "1")).init(false).build();
        assertThat(config.memoryBytes()).contains(1L << 30);
        assertThat(config.networkIsolated()).isFalse();
        assertThat(config.pinnedApiVersion()).contains("1.41");
        assertThat(config.toBuilder().build()).isEqualTo(config);
    }

    @Test
    void toStringShowsEnvNamesButNotValues() {
        DockerProviderConfig config = DockerProviderConfig.builder().env(Map.of("GIT_TOKEN", "s3cr3t-value")).build();
        assertThat(config.toString()).contains("GIT_TOKEN").doesNotContain("s3cr3t-value");
    }

    @Test
    void rejectsBadHosts() {
        for (String host : new String[] {"/var/run/docker.sock", "http://localhost:2375", "tcp://localhost", "unix://", "not a uri"}) {
            assertInvalid(b -> b.host(host), "host '" + host + "' is invalid; it must be unix:///path/to/docker.sock,"
                    + " tcp://host:port or npipe:////./pipe/name.");
        }
    }

    @Test
    void rejectsBadImageCpusAndMemory() {
        assertInvalid(b -> b.image("two words"), "image 'two words' is invalid; it must be an image reference"
                + " without spaces, such as alpine/git:latest.");
        assertInvalid(b -> b.cpus(0.0), "cpus '0.0' is invalid; it must be a number of CPUs above 0 and at most 1024, such as 0.5 or 2.");
        assertInvalid(b -> b.cpus(Double.NaN), "cpus 'NaN' is invalid; it must be a number of CPUs above 0 and at most 1024, such as 0.5 or 2.");
        assertInvalid(b -> b.memory("lots"), "memory 'lots' is invalid; it must be a number of bytes with an"
                + " optional binary unit b, k, m, g or t (for example 536870912, 512m or 2g).");
    }

    @Test
    void rejectsBadNetworkLabelsAndDirectories() {
        assertInvalid(b -> b.networkMode("no net"), "networkMode 'no net' is invalid; it must be none, host,"
                + " bridge or a network name made of letters, digits, '_', '.', ':' and '-'.");
        assertInvalid(b -> b.labels(Map.of("io.sandboxfactory.session", "x")), "labels"
                + " 'io.sandboxfactory.session' is invalid; label keys under io.sandboxfactory. are reserved for the provider.");
        Map<String, String> nullValue = new HashMap<>();
        nullValue.put("team", null);
        assertInvalid(b -> b.labels(nullValue), "labels.team is invalid; it has no value; give it one (an empty string is fine).");
        assertInvalid(b -> b.workingDirectory("workspace"), "workingDirectory 'workspace' is invalid; it must be"
                + " an absolute path inside the container, such as /workspace.");
    }

    @Test
    void rejectsBadApiVersionAndEnv() {
        assertInvalid(b -> b.apiVersion("latest"), "apiVersion 'latest' is invalid; it must look like 1.41,"
                + " or be left out to negotiate it with the engine.");
        assertInvalid(b -> b.env(Map.of("A=B", "x")), "env 'A=B' is invalid; a variable name must be non-empty"
                + " and contain neither '=' nor NUL.");
        assertInvalid(b -> b.env(Map.of("A", "nul\u0000")), "env.A is invalid; it must be"
                + " set and contain no NUL character.");
    }

    @Test
    void rejectsEveryBadValueAtOnceNamingKeysWithinTheSection() {
        assertThatThrownBy(() -> DockerProviderConfig.builder().image("two words").cpus(0.0).memory("lots").networkMode("no net")
                .volumes(List.of("/a:/data", "/b:/data")).env(Map.of("A=B", "x")).build())
                .isInstanceOfSatisfying(InvalidConfigValueException.class, e -> assertThat(e.problems())
                        .extracting(InvalidConfigValueException.Problem::key)
                        .containsExactly("env", "volumes[1]", "image", "cpus", "memory", "networkMode"))
                .hasMessageNotContaining("providers.docker");
    }

    @Test
    void hardeningKeysHaveSafeDefaultsAndNormalisedValues() {
        DockerProviderConfig defaults = DockerProviderConfig.defaults();
        assertThat(defaults.user()).isEqualTo("1000:1000");
        assertThat(defaults.capAdd()).isEmpty();
        assertThat(defaults.pidsLimit()).isEqualTo(1024L);
        assertThat(defaults.readOnlyRootFilesystem()).isFalse();
        assertThat(defaults.configuredRuntime()).isEmpty();
        DockerProviderConfig given = DockerProviderConfig.builder().user("1234").capAdd(List.of("cap_net_bind_service", "CHOWN"))
                .runtime(" runsc ").build();
        assertThat(given.containerUser()).isEqualTo(new ContainerUser(1234, 1234));
        assertThat(given.capAdd()).containsExactly("NET_BIND_SERVICE", "CHOWN");
        assertThat(given.configuredRuntime()).contains("runsc");
        assertThat(given.toBuilder().build()).isEqualTo(given);
    }

    @Test
    void rejectsBadHardeningValuesAllAtOnce() {
        assertInvalid(b -> b.user("node"), "user 'node' is invalid; it must be a numeric uid or uid:gid up to 2147483647,"
                + " such as 1000:1000 (names are not looked up).");
        assertInvalid(b -> b.pidsLimit(0L), "pidsLimit '0' is invalid; it must be a whole number of processes above 0, such as 1024.");
        assertInvalid(b -> b.capAdd(List.of("ALL")), "capAdd[0] 'ALL' is invalid; it must be a Linux capability name such as"
                + " NET_BIND_SERVICE (ALL is not allowed: name each one).");
        assertInvalid(b -> b.runtime("run sc"), "runtime 'run sc' is invalid; it must be the name of a runtime the engine knows,"
                + " such as runc or runsc: letters, digits, '_', '.' and '-'.");
        assertThatThrownBy(() -> DockerProviderConfig.builder().user("-1").capAdd(List.of("chown", "FLY")).pidsLimit(-5L)
                .runtime("a b").build())
                .isInstanceOfSatisfying(InvalidConfigValueException.class, e -> assertThat(e.problems())
                        .extracting(InvalidConfigValueException.Problem::key)
                        .containsExactly("user", "capAdd[1]", "pidsLimit", "runtime"));
    }

    private static void assertInvalid(UnaryOperator<DockerProviderConfig.Builder> change, String message) {
        assertThatThrownBy(() -> change.apply(DockerProviderConfig.builder()).build())
                .isInstanceOf(InvalidConfigValueException.class)
                .hasMessage(message);
    }
}
