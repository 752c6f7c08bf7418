package io.sandboxfactory.provider.kubernetes;

import io.sandboxfactory.api.error.ErrorCode;
import io.sandboxfactory.api.error.ErrorCodeSupplier;
import io.sandboxfactory.api.error.ErrorKind;
import io.sandboxfactory.api.error.StandardErrorCode;

/**
 * The codes only the kubernetes provider raises (its lifecycle failures use StandardErrorCode's
 * CREATE_FAILED, DESTROY_FAILED, ...); {@code KubernetesSandboxProvider.errorCodes()} lists them.
 */
public enum KubernetesErrorCode implements ErrorCodeSupplier {
    KUBERNETES_UNAVAILABLE(ErrorKind.INFRASTRUCTURE,
            "The kubeconfig or the in-cluster service account cannot be read, or the API server does not "
            + "answer. Fix `providers.kubernetes.kubeconfig` / `inCluster`, or the cluster."),
    POD_FAILED(ErrorKind.SANDBOX,
            "The session's pod failed (image pull error, crash). Read the pod's reason in the message; check "
            + "the image."),
    POD_NOT_READY(ErrorKind.SANDBOX,
            "The pod did not become Ready within `readyTimeout`. Raise `providers.kubernetes.readyTimeout` or"
            + " check the cluster's capacity."),
    NAME_TAKEN(ErrorKind.SANDBOX,
            "A pod or claim with the session's name exists but belongs to something else. Remove it or use "
            + "another session id."),
    DELETE_TIMEOUT(ErrorKind.INFRASTRUCTURE,
            "A Kubernetes object was not deleted in time. Check the cluster (finalizers, the API server); "
            + "retire again.");

    private final ErrorCode code;

    KubernetesErrorCode(ErrorKind kind, String meaning) {
        this.code = new ErrorCode(name(), kind, meaning);
    }

    @Override
    public ErrorCode toErrorCode() {
        return code;
    }
}
