package io.sandboxfactory.tck;

import io.sandboxfactory.api.SandboxProvider;
import io.sandboxfactory.provider.kubernetes.KubernetesProviderConfig;
import io.sandboxfactory.provider.kubernetes.KubernetesSandboxProvider;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The conformance kit against a real cluster, for users who have one ({@code scripts/kind-test.sh}
 * sets this up); skipped unless {@code SF_K8S_KUBECONFIG} names a kubeconfig. It was not run where
 * this provider was written: no API server can run there.
 *
 * <p>{@code SF_K8S_CONTEXT}, {@code SF_K8S_NAMESPACE} (default {@code sandbox-factory-tck}, which
 * must exist) and {@code SF_K8S_IMAGE} (default {@code alpine/git:latest}) choose the rest. The
 * session cases clone the kit's fixture repository, which lives on this host: with {@code
 * SF_K8S_GIT_HOST} (an address of this host the pods can reach, such as kind's network gateway)
 * it is served with {@code git daemon} on {@code SF_K8S_GIT_PORT} (default 9418) and the sandboxes
 * get {@code networkPolicy: none}; without it those cases fail.
 */
class KubernetesClusterTckIT extends ProviderContractTest<KubernetesProviderConfig> {

    @BeforeAll
    static void requireCluster() {
        Assumptions.assumeTrue(System.getenv("SF_K8S_KUBECONFIG") != null,
                "SF_K8S_KUBECONFIG is not set; scripts/kind-test.sh runs the kit against a real cluster.");
    }

    KubernetesClusterTckIT() {
        super(underTest());
    }

    private static ProviderUnderTest<KubernetesProviderConfig> underTest() {
        String gitHost = System.getenv("SF_K8S_GIT_HOST");
        return new ProviderUnderTest<>() {
            /** The git daemons serving this test's fixture repositories. */
            private final Map<Path, Process> gitDaemons = new ConcurrentHashMap<>();

            @Override
            public SandboxProvider<KubernetesProviderConfig> provider() {
                return new KubernetesSandboxProvider();
            }

            @Override
            public KubernetesProviderConfig config(Path workDirectory) {
                return KubernetesProviderConfig.builder()
                        .kubeconfig(System.getenv("SF_K8S_KUBECONFIG"))
                        .context(System.getenv("SF_K8S_CONTEXT"))
                        .namespace(System.getenv().getOrDefault("SF_K8S_NAMESPACE", "sandbox-factory-tck"))
                        .image(System.getenv().getOrDefault("SF_K8S_IMAGE", KubernetesProviderConfig.DEFAULT_IMAGE))
                        .networkPolicy(gitHost == null ? KubernetesProviderConfig.DENY_ALL : KubernetesProviderConfig.NO_POLICY)
                        .build();
            }

            @Override
            public String cloneUrl(Path hostRepository) {
                if (gitHost == null) {
                    return hostRepository.toString();
                }
                String port = System.getenv().getOrDefault("SF_K8S_GIT_PORT", "9418");
                Path base = hostRepository.getParent();
                gitDaemons.computeIfAbsent(base, b -> serve(b, gitHost, port));
                return "git://" + gitHost + ":" + port + "/" + hostRepository.getFileName();
            }
        };
    }

    /** Serves the repositories under {@code base} read-only; ended with the JVM (one test at a time uses the port). */
    private static Process serve(Path base, String host, String port) {
        try {
            Process daemon = new ProcessBuilder("git", "daemon", "--export-all", "--reuseaddr", "--base-path=" + base,
                    "--listen=" + host, "--port=" + port, base.toString()).inheritIO().start();
            Runtime.getRuntime().addShutdownHook(new Thread(daemon::destroy));
            return daemon;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
