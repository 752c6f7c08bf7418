package io.sandboxfactory.provider.kubernetes;

import io.sandboxfactory.api.support.DurationText;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.sandboxfactory.api.SandboxDestroyedException;
import io.sandboxfactory.api.SandboxException;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Waits for a pod to be Ready, and says why when it never gets there: the reason a container is
 * waiting ({@code ErrImagePull}, {@code ImagePullBackOff}), why it is not scheduled ({@code
 * Unschedulable}), and the pod's last event.
 */
final class PodReadiness {

    private static final long MAX_POLL_MILLIS = 1000;

    private PodReadiness() {
    }

    static boolean isReady(Pod pod) {
        return pod != null && pod.getStatus() != null && pod.getStatus().getConditions() != null
                && pod.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    static boolean isTerminal(Pod pod) {
        String phase = pod.getStatus() == null ? null : pod.getStatus().getPhase();
        return "Failed".equals(phase) || "Succeeded".equals(phase);
    }

    static boolean isTerminating(Pod pod) {
        return pod.getMetadata() != null && pod.getMetadata().getDeletionTimestamp() != null;
    }

    /** Polls (up to once a second) until the pod is Ready; fails naming the pod's last word when it is not within {@code timeout}. */
    static void await(KubernetesClient client, String namespace, String name, String sessionId, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = 50;
        while (true) {
            Pod pod = client.pods().inNamespace(namespace).withName(name).get();
            if (pod == null) {
                throw new SandboxDestroyedException("Pod '" + name + "' of session '" + sessionId + "' in namespace '"
                        + namespace + "' was deleted while it was starting.", null);
            }
            if (isReady(pod)) {
                return;
            }
            if (isTerminal(pod)) {
                throw new SandboxException(KubernetesErrorCode.POD_FAILED, "Pod '" + name + "' of session '" + sessionId + "' in namespace '"
                        + namespace + "' ended (phase " + pod.getStatus().getPhase() + ") before it was Ready: "
                        + why(client, pod) + ".");
            }
            if (System.nanoTime() > deadline) {
                throw new SandboxException(KubernetesErrorCode.POD_NOT_READY, "Pod '" + name + "' of session '" + sessionId + "' in namespace '"
                        + namespace + "' was not Ready within " + DurationText.of(timeout) + " (providers.kubernetes.readyTimeout): "
                        + why(client, pod) + ".");
            }
            Thread.sleep(pause);
            pause = Math.min(pause * 2, MAX_POLL_MILLIS);
        }
    }

    /** The most telling reasons the pod is not Ready, most specific first. */
    static String why(KubernetesClient client, Pod pod) {
        StringBuilder out = new StringBuilder();
        waitingReason(pod).ifPresent(reason -> out.append(reason));
        unscheduled(pod).ifPresent(reason -> append(out, reason));
        lastEvent(client, pod).ifPresent(event -> append(out, "last event " + event));
        if (out.length() == 0) {
            append(out, "phase " + (pod.getStatus() == null ? "unknown" : pod.getStatus().getPhase()) + ", no event recorded");
        }
        return out.toString();
    }

    private static void append(StringBuilder out, String text) {
        if (out.length() > 0) {
            out.append("; ");
        }
        out.append(text);
    }

    private static Optional<String> waitingReason(Pod pod) {
        List<ContainerStatus> statuses = pod.getStatus() == null ? null : pod.getStatus().getContainerStatuses();
        if (statuses == null) {
            return Optional.empty();
        }
        return statuses.stream()
                .filter(s -> s.getState() != null && s.getState().getWaiting() != null && s.getState().getWaiting().getReason() != null)
                .map(s -> "container " + s.getName() + " is waiting: " + s.getState().getWaiting().getReason()
                        + (s.getState().getWaiting().getMessage() == null ? "" : " (" + s.getState().getWaiting().getMessage() + ")"))
                .findFirst();
    }

    private static Optional<String> unscheduled(Pod pod) {
        List<PodCondition> conditions = pod.getStatus() == null ? null : pod.getStatus().getConditions();
        if (conditions == null) {
            return Optional.empty();
        }
        return conditions.stream()
                .filter(c -> "PodScheduled".equals(c.getType()) && "False".equals(c.getStatus()))
                .map(c -> "not scheduled: " + c.getReason() + (c.getMessage() == null ? "" : " (" + c.getMessage() + ")"))
                .findFirst();
    }

    private static Optional<String> lastEvent(KubernetesClient client, Pod pod) {
        String name = pod.getMetadata().getName();
        var events = client.v1().events().inNamespace(pod.getMetadata().getNamespace());
        Optional<String> selected = lastOf(() -> events.withField("involvedObject.name", name).list().getItems(), name);
        // Some servers (fabric8's mock among them) refuse or ignore that field selector: look through the namespace's events.
        return selected.isPresent() ? selected : lastOf(() -> events.list().getItems(), name);
    }

    private static Optional<String> lastOf(java.util.function.Supplier<List<Event>> list, String name) {
        try {
            return list.get().stream()
                    .filter(e -> e.getInvolvedObject() != null && name.equals(e.getInvolvedObject().getName()))
                    .max(Comparator.comparing(PodReadiness::when))
                    .map(e -> e.getReason() + ": " + e.getMessage());
        } catch (RuntimeException e) {
            // Reading events needs RBAC some clusters withhold; the other reasons still stand.
            return Optional.empty();
        }
    }

    private static String when(Event e) {
        return Objects.requireNonNullElse(e.getLastTimestamp(), Objects.requireNonNullElse(e.getFirstTimestamp(),
                Objects.requireNonNullElse(e.getMetadata() == null ? null : e.getMetadata().getCreationTimestamp(), "")));
    }
}
