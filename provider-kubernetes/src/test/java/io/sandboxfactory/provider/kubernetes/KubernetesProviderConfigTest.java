package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.api.model.Quantity;
import io.sandboxfactory.api.InvalidConfigValueException;
import io.sandboxfactory.api.SandboxResources;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class KubernetesProviderConfigTest {

    @Test
    void defaults() {
        KubernetesProviderConfig config = KubernetesProviderConfig.defaults();
        assertThat(config.namespace()).isEqualTo("default");
        assertThat(config.networkPolicy()).isEqualTo("deny-all");
        assertThat(config.storageSize()).isEqualTo("1Gi");
        assertThat(config.workingDirectory()).isEqualTo("/workspace");
        assertThat(config.readyTimeoutDuration()).isEqualTo(Duration.ofMinutes(3));
        assertThat(config.useEnvironment()).isFalse();
        assertThat(config.inCluster()).isFalse();
    }

    @Test
    void securityDefaultsAreANonRootUserAndTheClustersDefaultRuntime() {
        KubernetesProviderConfig config = KubernetesProviderConfig.defaults();
        assertThat(config.runAsUser()).isEqualTo(1000L);
        assertThat(config.addCapabilities()).isEmpty();
        assertThat(config.runtimeClassName()).isNull();
        assertThat(config.isolation()).isEqualTo("kubernetes/default");
        assertThat(KubernetesProviderConfig.builder().runtimeClassName("gvisor").build().isolation()).isEqualTo("kubernetes/gvisor");
    }

    @Test
    void badValuesFailNamingTheFieldAndTheRule() {
        assertThatThrownBy(() -> KubernetesProviderConfig.builder().namespace("Team_A").build())
                .hasMessage("namespace 'Team_A' is invalid; it must be a DNS-1123 label: lower-case letters,"
                        + " digits and '-', starting and ending with a letter or digit, at most 63 characters.");
        assertThatThrownBy(() -> KubernetesProviderConfig.builder().networkPolicy("allow").build())
                .hasMessage("networkPolicy 'allow' is invalid; it must be deny-all or none.");
        assertThatThrownBy(() -> KubernetesProviderConfig.builder().memoryLimit("lots").build())
                .hasMessageStartingWith("memoryLimit 'lots' is invalid; it must be a positive Kubernetes quantity");
        assertThatThrownBy(() -> KubernetesProviderConfig.builder().readyTimeout("soon").build())
                .hasMessageStartingWith("readyTimeout 'soon' is invalid");
        assertThatThrownBy(() -> KubernetesProviderConfig.builder().labels(Map.of("io.sandboxfactory/x", "y")).build())
                .hasMessageContaining("keys under io.sandboxfactory/ are the provider's own");
        assertThatThrownBy(() -> KubernetesProviderConfig.builder().workingDirectory("work").build())
                .hasMessageStartingWith("workingDirectory 'work' is invalid");
        assertThatThrownBy(() -> KubernetesProviderConfig.builder().inCluster(true).kubeconfig("/k").build())
                .hasMessageContaining("choose one way to reach the cluster");
        assertThatThrownBy(() -> new KubernetesToleration("k", "Sometimes", null, null, null))
                .hasMessage("operator 'Sometimes' is invalid; it must be Equal or Exists.");
        assertThatThrownBy(() -> KubernetesProviderConfig.builder().runtimeClassName("G_Visor").build())
                .hasMessage("runtimeClassName 'G_Visor' is invalid; it must be a RuntimeClass name: a DNS-1123 subdomain of lower-case"
                        + " letters, digits, '-' and '.', starting and ending with a letter or digit, at most 253 characters.");
        assertThatThrownBy(() -> KubernetesProviderConfig.builder().runAsUser(0).build())
                .isInstanceOfSatisfying(InvalidConfigValueException.class, e -> assertThat(e.errorCode().name()).isEqualTo("INVALID_CONFIG"))
                .hasMessage("runAsUser '0' is invalid; it must be a non-root user id, a whole number from 1 to 2147483647"
                        + " (pods run with runAsNonRoot).");
        assertThatThrownBy(() -> KubernetesProviderConfig.builder().addCapabilities(List.of("CAP_NET_ADMIN")).build())
                .hasMessageStartingWith("addCapabilities 'CAP_NET_ADMIN' is invalid; each must be one Linux capability in upper case"
                        + " without the CAP_ prefix");
        assertThatThrownBy(() -> KubernetesProviderConfig.builder().env(Map.of("A-B", "1")).build())
                .hasMessage("env 'A-B' is invalid; a variable name must be letters, digits and '_', not starting with a digit.");
    }

    @Test
    void everyBadValueIsRejectedAtOnceByItsKeyWithinTheSection() {
        assertThatThrownBy(() -> KubernetesProviderConfig.builder().namespace("Team_A").memoryLimit("lots").readyTimeout("soon")
                .labels(Map.of("io.sandboxfactory/x", "y")).build())
                .isInstanceOfSatisfying(InvalidConfigValueException.class, e -> assertThat(e.problems())
                        .extracting(InvalidConfigValueException.Problem::key)
                        .containsExactly("memoryLimit", "labels", "namespace", "readyTimeout"))
                .hasMessageNotContaining("providers.kubernetes");
        assertThatThrownBy(() -> new KubernetesToleration("", "Sometimes", "v", "Never", 5L))
                .isInstanceOfSatisfying(InvalidConfigValueException.class, e -> assertThat(e.problems())
                        .extracting(InvalidConfigValueException.Problem::key)
                        .containsExactly("operator", "effect", "key", "tolerationSeconds"));
    }

    @Test
    void shortAndIsoDurationsAreAccepted() {
        assertThat(KubernetesProviderConfig.builder().readyTimeout("1h30m").build().readyTimeoutDuration())
                .isEqualTo(Duration.ofMinutes(90));
        assertThat(KubernetesProviderConfig.builder().readyTimeout("PT20S").build().readyTimeoutDuration())
                .isEqualTo(Duration.ofSeconds(20));
    }

    @Test
    void sessionResourcesWinOverTheConfigAndBecomeRequestAndLimit() {
        KubernetesProviderConfig config = KubernetesProviderConfig.builder().cpuRequest("250m").cpuLimit("1")
                .memoryRequest("256Mi").memoryLimit("1Gi").build();
        var fromConfig = SessionObjects.resources(config, SandboxResources.none());
        assertThat(fromConfig.getRequests()).containsEntry("cpu", new Quantity("250m")).containsEntry("memory", new Quantity("256Mi"));
        assertThat(fromConfig.getLimits()).containsEntry("cpu", new Quantity("1")).containsEntry("memory", new Quantity("1Gi"));

        var fromSession = SessionObjects.resources(config, new SandboxResources(Optional.of(1.5), Optional.of(512L * 1024 * 1024)));
        assertThat(fromSession.getRequests()).containsEntry("cpu", new Quantity("1500m"))
                .containsEntry("memory", new Quantity(Long.toString(512L * 1024 * 1024)));
        assertThat(fromSession.getLimits()).isEqualTo(fromSession.getRequests());
    }

    @Test
    void tolerationsMapToTheModel() {
        var model = new KubernetesToleration("gpu", "Exists", null, "NoSchedule", null).toModel();
        assertThat(model.getKey()).isEqualTo("gpu");
        assertThat(model.getOperator()).isEqualTo("Exists");
        assertThat(model.getEffect()).isEqualTo("NoSchedule");
        assertThat(model.getValue()).isNull();
        assertThat(List.of(model)).hasSize(1);
    }
}
