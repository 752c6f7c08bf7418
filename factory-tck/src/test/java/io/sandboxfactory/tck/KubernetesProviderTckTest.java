package io.sandboxfactory.tck;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.sandboxfactory.api.SandboxProvider;
import io.sandboxfactory.provider.kubernetes.FakeKubelet;
import io.sandboxfactory.provider.kubernetes.MockCluster;
import io.sandboxfactory.provider.kubernetes.KubernetesProviderConfig;
import io.sandboxfactory.provider.kubernetes.KubernetesSandboxProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.UUID;

/**
 * The kubernetes provider passes the conformance kit against fabric8's mock API server (CRUD
 * mode, loopback only) with the {@link FakeKubelet} (both from provider-kubernetes' test jar) running execs on this host: every case the
 * mock and the fake node can serve, which is all of them. What this does not prove (a real
 * scheduler, kubelet, container runtime, storage and network plugin) is what {@code
 * scripts/kind-test.sh} runs the same kit for, against a real cluster.
 *
 * <p>Each test gets a namespace of its own, derived from its directory (the kit calls {@link
 * ProviderUnderTest#config} again with the same directory for its "second process").
 */
class KubernetesProviderTckTest extends ProviderContractTest<KubernetesProviderConfig> {

    /** One mock cluster for the whole class, made on first use; its server threads end with the JVM. */
    private static final class Shared {
        static final MockCluster CLUSTER = start();

        private static MockCluster start() {
            try {
                Path volumes = Files.createTempDirectory("sf-k8s-tck-volumes");
                MockCluster cluster = new MockCluster(volumes);
                Runtime.getRuntime().addShutdownHook(new Thread(cluster::close, "mock-cluster-stop"));
                return cluster;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }

    @BeforeAll
    static void requireMountNamespaces() {
        Assumptions.assumeTrue(FakeKubelet.usable(), "The fake kubelet needs mount namespaces (root); this host has none.");
    }

    KubernetesProviderTckTest() {
        super(underTest());
    }

    private static ProviderUnderTest<KubernetesProviderConfig> underTest() {
        return new ProviderUnderTest<>() {
            @Override
            public SandboxProvider<KubernetesProviderConfig> provider() {
                return new KubernetesSandboxProvider();
            }

            @Override
            public KubernetesProviderConfig config(Path workDirectory) {
                Path workspace = workDirectory.resolve("workspace");
                try {
                    Files.createDirectories(workspace);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
                return KubernetesProviderConfig.builder()
                        .namespace("tck-" + UUID.nameUUIDFromBytes(workDirectory.toString().getBytes(StandardCharsets.UTF_8)).toString().substring(0, 12))
                        .workingDirectory(workspace.toString())
                        .build();
            }

            @Override
            public Map<Class<?>, Object> hostObjects(Path workDirectory) {
                return Map.of(KubernetesClient.class, Shared.CLUSTER.client());
            }
        };
    }
}
