package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.ByteString;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Executor;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a node would do for the mock API server, so commands really run: it answers {@code
 * pods/{name}/exec} websockets (v4 channel protocol: 0 stdin, 1 stdout, 2 stderr, 3 status) by
 * running the argv on this host, in a mount namespace of its own where the pod's claim (a
 * directory per claim uid under {@code volumes}) is bind-mounted at the pod's mount path. Every
 * other request goes to the mock's CRUD dispatcher. {@link #markReady} plays the kubelet reporting
 * a pod Ready, or failing to pull an image named {@link #UNPULLABLE_PREFIX}{@code …}.
 *
 * <p>Needs root (mount namespaces); {@link #usable()} says whether this host allows it.
 */
public final class FakeKubelet extends Dispatcher {

    static final String UNPULLABLE_PREFIX = "registry.invalid/";

    private static final Pattern EXEC = Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/exec\\?(.*)");

    private final Dispatcher api;
    private final Path volumes;
    private final Executor watchCloser;
    private final KubernetesSerialization serialization = new KubernetesSerialization();
    private final Map<String, Set<Process>> running = new ConcurrentHashMap<>();
    private final List<String> execRequests = new CopyOnWriteArrayList<>();

    /** {@code watchCloser} runs the mock's watch listeners' close callbacks, off its event loop ({@link OffLoopCloseListener}). */
    FakeKubelet(Dispatcher api, Path volumes, Executor watchCloser) {
        this.api = api;
        this.volumes = volumes;
        this.watchCloser = watchCloser;
    }

    public static boolean usable() {
        try {
            return new ProcessBuilder("unshare", "-m", "--propagation", "private", "true").start().waitFor() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
        Matcher exec = EXEC.matcher(request.getPath());
        if (!exec.matches()) {
            MockResponse response = api.dispatch(request);
            WebSocketListener watch = response.getWebSocketListener();
            return watch == null ? response : response.withWebSocketUpgrade(new OffLoopCloseListener(watch, watchCloser));
        }
        execRequests.add(request.getPath());
        String namespace = exec.group(1);
        String name = exec.group(2);
        Pod pod = get(namespace, "pods", name, Pod.class);
        if (pod == null) {
            return status(404, "pods \"" + name + "\" not found", "NotFound");
        }
        if (!PodReadiness.isReady(pod)) {
            return status(400, "pod " + name + " is not running", "BadRequest");
        }
        Volume volume = pod.getSpec().getVolumes().get(0);
        PersistentVolumeClaim claim = get(namespace, "persistentvolumeclaims", volume.getPersistentVolumeClaim().getClaimName(),
                PersistentVolumeClaim.class);
        if (claim == null) {
            return status(400, "claim of pod " + name + " is missing", "BadRequest");
        }
        String mountPath = pod.getSpec().getContainers().get(0).getVolumeMounts().get(0).getMountPath();
        String claimKey = claim.getMetadata().getName() + "-" + claim.getMetadata().getUid() + "-"
                + claim.getMetadata().getCreationTimestamp();
        List<String> argv = new ArrayList<>();
        for (String param : exec.group(3).split("&")) {
            if (param.startsWith("command=")) {
                argv.add(URLDecoder.decode(param.substring("command=".length()), StandardCharsets.UTF_8));
            }
        }
        return new MockResponse().setHeader("Sec-WebSocket-Protocol", "v4.channel.k8s.io")
                .withWebSocketUpgrade(new ExecSession(namespace + "/" + name, volumes.resolve(claimKey.replaceAll("[^A-Za-z0-9._-]", "_")),
                        mountPath, argv));
    }

    /** The paths, query included, of every exec request the API server received, as its audit log would record them. */
    List<String> execRequests() {
        return List.copyOf(execRequests);
    }

    /** Plays the kubelet for {@code pod}: Ready, or an image pull failure with its event. */
    void markReady(KubernetesClient client, Pod pod) {
        String image = pod.getSpec().getContainers().get(0).getImage();
        var resource = client.pods().inNamespace(pod.getMetadata().getNamespace()).withName(pod.getMetadata().getName());
        if (image.startsWith(UNPULLABLE_PREFIX)) {
            resource.editStatus(p -> new PodBuilder(p).editOrNewStatus().withPhase("Pending")
                    .addNewContainerStatus().withName(SessionObjects.CONTAINER).withImage(image).withReady(false)
                    .withNewState().withNewWaiting().withReason("ImagePullBackOff")
                    .withMessage("Back-off pulling image \"" + image + "\"").endWaiting().endState().endContainerStatus()
                    .endStatus().build());
            client.v1().events().inNamespace(pod.getMetadata().getNamespace()).resource(new EventBuilder()
                    .withNewMetadata().withName(pod.getMetadata().getName() + ".pull").endMetadata()
                    .withInvolvedObject(new ObjectReferenceBuilder().withKind("Pod").withName(pod.getMetadata().getName())
                            .withNamespace(pod.getMetadata().getNamespace()).build())
                    .withReason("Failed").withMessage("Failed to pull image \"" + image + "\": not found")
                    .withLastTimestamp("2030-01-01T00:00:00Z").withType("Warning").build()).create();
            return;
        }
        resource.editStatus(p -> new PodBuilder(p).editOrNewStatus().withPhase("Running")
                .addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build());
    }

    /** A deleted pod's processes die with it, as on a node. */
    void podDeleted(Pod pod) {
        Set<Process> processes = running.remove(pod.getMetadata().getNamespace() + "/" + pod.getMetadata().getName());
        if (processes != null) {
            processes.forEach(p -> {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
            });
        }
    }

    private <T> T get(String namespace, String plural, String name, Class<T> type) {
        MockResponse response = api.dispatch(new RecordedRequest("HTTP/1.1", HttpMethod.GET,
                "/api/v1/namespaces/" + namespace + "/" + plural + "/" + name, Headers.builder().build(), new Buffer()));
        if (response.code() != 200) {
            return null;
        }
        return serialization.unmarshal(response.getBody().readUtf8(), type);
    }

    private static MockResponse status(int code, String message, String reason) {
        return new MockResponse().setResponseCode(code).setHeader("Content-Type", "application/json")
                .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"metadata\":{},\"status\":\"Failure\",\"message\":\""
                        + message.replace("\"", "\\\"") + "\",\"reason\":\"" + reason + "\",\"code\":" + code + "}");
    }

    /** One exec: a host process in the pod's "container" (its volume at its mount path). */
    private final class ExecSession extends WebSocketListener {
        private final String pod;
        private final Path volume;
        private final String mountPath;
        private final List<String> argv;
        private final BlockingQueue<byte[]> stdin = new LinkedBlockingQueue<>();
        private volatile boolean clientGone;
        private Process process;

        ExecSession(String pod, Path volume, String mountPath, List<String> argv) {
            this.pod = pod;
            this.volume = volume;
            this.mountPath = mountPath;
            this.argv = argv;
        }

        @Override
        public void onOpen(WebSocket ws, Response response) {
            List<String> command = new ArrayList<>(List.of("unshare", "-m", "--propagation", "private", "/bin/sh", "-c",
                    "mount --bind \"$1\" \"$2\" || exit 125; shift 2; exec \"$@\"", "fake-kubelet", volume.toString(), mountPath));
            command.addAll(argv);
            try {
                Files.createDirectories(volume);
                Files.createDirectories(Path.of(mountPath));
                ProcessBuilder builder = new ProcessBuilder(command).directory(Path.of("/").toFile());
                builder.environment().clear();
                builder.environment().put("PATH", "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin");
                builder.environment().put("HOME", "/root");
                process = builder.start();
            } catch (IOException e) {
                ws.send(frame(3, ("{\"status\":\"Failure\",\"reason\":\"InternalError\",\"message\":\"" + e.getMessage() + "\"}")
                        .getBytes(StandardCharsets.UTF_8)));
                ws.close(1000, "");
                return;
            }
            running.computeIfAbsent(pod, k -> ConcurrentHashMap.newKeySet()).add(process);
            Thread out = pump(ws, process.getInputStream(), 1);
            Thread err = pump(ws, process.getErrorStream(), 2);
            Thread in = new Thread(() -> feed(process.getOutputStream()), "fake-kubelet-stdin");
            in.setDaemon(true);
            in.start();
            Thread waiter = new Thread(() -> finish(ws, out, err), "fake-kubelet-exit");
            waiter.setDaemon(true);
            waiter.start();
        }

        @Override
        public void onMessage(WebSocket ws, ByteString bytes) {
            onMessage(ws, bytes.toByteArray());
        }

        @Override
        public void onMessage(WebSocket ws, byte[] bytes) {
            if (bytes.length > 1 && bytes[0] == 0) {
                byte[] data = new byte[bytes.length - 1];
                System.arraycopy(bytes, 1, data, 0, data.length);
                stdin.offer(data);
            }
        }

        @Override
        public void onClosed(WebSocket ws, int code, String reason) {
            // The client went away (kubectl exec closing): a node keeps the process but ends its stdin.
            clientGone = true;
        }

        @Override
        public void onClosing(WebSocket ws, int code, String reason) {
            clientGone = true;
        }

        @Override
        public void onFailure(WebSocket ws, Throwable failure, Response response) {
            clientGone = true;
        }

        private void feed(OutputStream to) {
            try {
                while (process.isAlive()) {
                    byte[] data = stdin.poll(100, java.util.concurrent.TimeUnit.MILLISECONDS);
                    if (data != null) {
                        to.write(data);
                        to.flush();
                    } else if (clientGone) {
                        to.close();
                        return;
                    }
                }
            } catch (IOException e) {
                // The process stopped reading (tar at its end-of-archive blocks).
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private Thread pump(WebSocket ws, InputStream from, int channel) {
            Thread t = new Thread(() -> {
                byte[] buffer = new byte[16384];
                try {
                    int n;
                    while ((n = from.read(buffer)) >= 0) {
                        byte[] data = new byte[n];
                        System.arraycopy(buffer, 0, data, 0, n);
                        ws.send(frame(channel, data));
                    }
                } catch (IOException e) {
                    // The process is gone.
                }
            }, "fake-kubelet-out-" + channel);
            t.setDaemon(true);
            t.start();
            return t;
        }

        private void finish(WebSocket ws, Thread out, Thread err) {
            try {
                int code = process.waitFor();
                out.join();
                err.join();
                running.getOrDefault(pod, Set.of()).remove(process);
                String status = code == 0 ? "{\"metadata\":{},\"status\":\"Success\"}"
                        : "{\"metadata\":{},\"status\":\"Failure\",\"message\":\"command terminated with non-zero exit code\","
                        + "\"reason\":\"NonZeroExitCode\",\"details\":{\"causes\":[{\"reason\":\"ExitCode\",\"message\":\"" + code + "\"}]}}";
                ws.send(frame(3, status.getBytes(StandardCharsets.UTF_8)));
                ws.close(1000, "");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        private byte[] frame(int channel, byte[] data) {
            byte[] framed = new byte[data.length + 1];
            framed[0] = (byte) channel;
            System.arraycopy(data, 0, framed, 1, data.length);
            return framed;
        }
    }
}
