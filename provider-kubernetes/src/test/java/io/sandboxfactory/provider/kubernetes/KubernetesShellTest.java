package io.sandboxfactory.provider.kubernetes;

import io.sandboxfactory.api.capability.AttachableSandbox;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The kubernetes provider's interactive attach, by the {@code kubectl exec} it describes (no
 * cluster): the namespace, pod, container, kubeconfig and context the provider uses, and no
 * credential on the command line; the session's variables as the shell text of the file the shell reads.
 */
class KubernetesShellTest {

    private static final Map<String, String> CALLER = Map.of("PATH", "/usr/bin", "HOME", "/home/me", "KUBECONFIG", "/home/me/other");

    @TempDir
    Path home;

    private ClusterConnection connection(KubernetesProviderConfig config) {
        return new ClusterConnection(config, Map.of(), Optional.empty(), home);
    }

    private static AttachableSandbox.Attach attach(ClusterConnection connection, boolean terminal) {
        return KubernetesShell.attach("sf-s1-abc", new AttachableSandbox.Request("/workspace/app", terminal, CALLER),
                "/tmp/.factory-shell-1", connection.kubectlOptions(), connection.ignoresKubeconfigVariable());
    }

    @Test
    void onATerminalItIsKubectlExecWithATtyThroughTheConfiguredKubeconfigAndContext() {
        ClusterConnection connection = connection(KubernetesProviderConfig.builder().namespace("sandboxes")
                .kubeconfig("/etc/factory/kubeconfig").context("prod").build());

        AttachableSandbox.Attach attach = attach(connection, true);

        assertThat(attach.command()).containsExactly("kubectl", "--kubeconfig", "/etc/factory/kubeconfig", "--context", "prod",
                "--namespace", "sandboxes", "exec", "-i", "-t", "sf-s1-abc", "-c", "sandbox", "--",
                "sh", "-c", ". \"$2\" && rm -f -- \"$2\" && cd -- \"$1\" && exec sh", "sh", "/workspace/app", "/tmp/.factory-shell-1");
        assertThat(attach.environment()).containsEntry("PATH", "/usr/bin").containsEntry("HOME", "/home/me")
                .doesNotContainKey("KUBECONFIG");
        assertThat(attach.hostDirectory()).isEmpty();
    }

    @Test
    void withoutATerminalThereIsNoTtyAndTheDefaultKubeconfigIsNamed() {
        AttachableSandbox.Attach attach = attach(connection(KubernetesProviderConfig.builder().build()), false);

        assertThat(attach.command()).containsExactly("kubectl", "--kubeconfig", home.resolve(".kube/config").toString(),
                "--namespace", KubernetesProviderConfig.DEFAULT_NAMESPACE, "exec", "-i", "sf-s1-abc", "-c", "sandbox", "--",
                "sh", "-c", ". \"$2\" && rm -f -- \"$2\" && cd -- \"$1\" && exec sh", "sh", "/workspace/app", "/tmp/.factory-shell-1");
    }

    @Test
    void withTheEnvironmentsSettingsKubectlReadsThemToo() {
        AttachableSandbox.Attach attach = attach(connection(KubernetesProviderConfig.builder().useEnvironment(true).context("dev")
                .build()), false);

        assertThat(attach.command()).startsWith("kubectl", "--context", "dev", "--namespace", "default", "exec");
        assertThat(attach.environment()).containsEntry("KUBECONFIG", "/home/me/other");
    }

    @Test
    void inAPodKubectlUsesThePodsServiceAccountAndNoTokenIsOnTheCommandLine() {
        AttachableSandbox.Attach attach = attach(connection(KubernetesProviderConfig.builder().inCluster(true).context("ignored")
                .build()), false);

        assertThat(attach.command()).startsWith("kubectl", "--namespace", "default", "exec");
        assertThat(attach.command()).noneMatch(arg -> arg.startsWith("--token") || arg.startsWith("--kubeconfig") || arg.equals("ignored"));
        assertThat(attach.environment()).doesNotContainKey("KUBECONFIG");
    }

    @Test
    void theVariablesFileSetsEachVariableQuotedAndLeavesOutWhatTheShellCannotSet() {
        Map<String, String> variables = new java.util.LinkedHashMap<>();
        variables.put("GIT_TOKEN", "s3cret");
        variables.put("QUOTED", "it's $HOME `x`\nline two");
        variables.put("not-a-name", "dropped");

        assertThat(KubernetesShell.exports(variables)).isEqualTo("export GIT_TOKEN=s3cret\n"
                + "export QUOTED='it'\\''s $HOME `x`\nline two'\n");
    }
}
