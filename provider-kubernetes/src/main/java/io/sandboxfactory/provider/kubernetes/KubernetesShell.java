package io.sandboxfactory.provider.kubernetes;

import io.sandboxfactory.api.AttachableSandbox;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A person's shell in a session's pod ({@link KubernetesSandbox#attach}): {@code kubectl exec} of
 * {@code sh} in the sandbox container, changed to the directory, with a TTY when the caller has a
 * terminal. kubectl reaches the cluster the provider does through the same kubeconfig file and
 * context ({@link ClusterConnection#kubectlOptions}), never a token on its command line. kubectl
 * passes no variable but on the command line, so the shell has the pod's environment, not the
 * session's own variables (a repository token among them).
 */
final class KubernetesShell {

    /** Started with the directory as {@code $1}, so no path is ever parsed as shell text. */
    static final String IN_DIRECTORY = "cd -- \"$1\" && exec sh";

    private KubernetesShell() {
    }

    /**
     * @param kubectlOptions where the cluster is and the namespace ({@link ClusterConnection#kubectlOptions})
     * @param withoutKubeconfigVariable whether {@code KUBECONFIG} is left out of kubectl's environment, which the provider ignores too
     */
    static AttachableSandbox.Attach attach(String pod, AttachableSandbox.Request request, List<String> kubectlOptions,
                                           boolean withoutKubeconfigVariable) {
        List<String> command = new ArrayList<>(List.of("kubectl"));
        command.addAll(kubectlOptions);
        command.addAll(List.of("exec", "-i"));
        if (request.terminal()) {
            command.add("-t");
        }
        command.addAll(List.of(pod, "-c", SessionObjects.CONTAINER, "--", "sh", "-c", IN_DIRECTORY, "sh", request.directory()));
        Map<String, String> environment = new HashMap<>(request.callerEnvironment());
        if (withoutKubeconfigVariable) {
            environment.remove("KUBECONFIG");
        }
        return new AttachableSandbox.Attach(command, environment, Optional.empty());
    }
}
