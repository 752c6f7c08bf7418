package io.sandboxfactory.provider.kubernetes;

import io.sandboxfactory.api.capability.AttachableSandbox;
import io.sandboxfactory.api.support.Sandboxes;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * A person's shell in a session's pod ({@link KubernetesSandbox#attach}): {@code kubectl exec} of
 * {@code sh} in the sandbox container, changed to the directory, with a TTY when the caller has a
 * terminal. kubectl reaches the cluster the provider does through the same kubeconfig file and
 * context ({@link ClusterConnection#kubectlOptions}), never a token on its command line.
 *
 * <p>kubectl passes a variable only as a value on its command line, which every user of the host
 * can read. So the session's variables go into a file of the pod instead ({@link #exports}, mode
 * 0600 in {@code /tmp}, written through the provider's file transfer before kubectl starts), which
 * the shell reads and removes before anything else.
 */
final class KubernetesShell {

    /** {@code $1} the directory, {@code $2} the variables' file: neither is ever parsed as shell text. */
    static final String SCRIPT = ". \"$2\" && rm -f -- \"$2\" && cd -- \"$1\" && exec sh";

    /** Where the variables' files go: every image has it, writable to the sandbox's user. */
    static final String FILE_DIRECTORY = "/tmp";

    private static final Pattern NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

    private KubernetesShell() {
    }

    /** A name no other attach uses, for a variables' file in {@link #FILE_DIRECTORY}. */
    static String newFileName() {
        return ".factory-shell-" + UUID.randomUUID();
    }

    /** The shell text that sets {@code variables} (values quoted); a name the shell cannot set is left out. */
    static String exports(Map<String, String> variables) {
        StringBuilder text = new StringBuilder();
        variables.forEach((name, value) -> {
            if (NAME.matcher(name).matches()) {
                text.append("export ").append(name).append('=').append(Sandboxes.quote(value)).append('\n');
            }
        });
        return text.toString();
    }

    /**
     * @param variablesFile the absolute path of the pod's file that {@link #exports} the session's variables
     * @param kubectlOptions where the cluster is and the namespace ({@link ClusterConnection#kubectlOptions})
     * @param withoutKubeconfigVariable whether {@code KUBECONFIG} is left out of kubectl's environment, which the provider ignores too
     */
    static AttachableSandbox.Attach attach(String pod, AttachableSandbox.Request request, String variablesFile,
                                           List<String> kubectlOptions, boolean withoutKubeconfigVariable) {
        List<String> command = new ArrayList<>(List.of("kubectl"));
        command.addAll(kubectlOptions);
        command.addAll(List.of("exec", "-i"));
        if (request.terminal()) {
            command.add("-t");
        }
        command.addAll(List.of(pod, "-c", SessionObjects.CONTAINER, "--", "sh", "-c", SCRIPT, "sh", request.directory(), variablesFile));
        Map<String, String> environment = new HashMap<>(request.callerEnvironment());
        if (withoutKubeconfigVariable) {
            environment.remove("KUBECONFIG");
        }
        return new AttachableSandbox.Attach(command, environment, Optional.empty());
    }
}
