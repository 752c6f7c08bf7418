package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.client.KubernetesClientException;

import java.net.ConnectException;

/** What a fabric8 failure means here: the status code and the cause chain. */
final class KubernetesFailures {

    private KubernetesFailures() {
    }

    static int code(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof KubernetesClientException k && k.getCode() > 0) {
                return k.getCode();
            }
        }
        return 0;
    }

    static boolean isNotFound(Throwable e) {
        return code(e) == 404;
    }

    static boolean isConflict(Throwable e) {
        return code(e) == 409;
    }

    /** Nothing reached the server: the connection was refused. */
    static boolean isConnectFailure(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConnectException) {
                return true;
            }
        }
        return false;
    }

    static String message(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof KubernetesClientException k && k.getStatus() != null && k.getStatus().getMessage() != null) {
                return k.getStatus().getMessage();
            }
        }
        String message = e.getMessage();
        return message == null ? e.getClass().getSimpleName() : message;
    }
}
