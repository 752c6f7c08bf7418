package io.sandboxfactory.provider.kubernetes;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.kubernetes.client.server.mock.KubernetesMixedDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;

import java.net.InetAddress;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;

/**
 * fabric8's mock API server in CRUD mode, on loopback only, with a {@link FakeKubelet} behind it
 * that marks new pods Ready (or failing) and runs execs on this host. Public for factory-tck's kit
 * run (through this module's test jar).
 */
public final class MockCluster implements AutoCloseable {

    private final KubernetesMockServer server;
    private final KubernetesClient client;
    private final FakeKubelet kubelet;
    private final Watch watch;
    private final ExecutorService kubeletThread = Executors.newSingleThreadExecutor(daemonThreads("fake-kubelet-status"));
    private final ExecutorService watchCloser = Executors.newCachedThreadPool(daemonThreads("mock-watch-close"));

    public MockCluster(Path volumes) {
        var responses = new HashMap<io.fabric8.mockwebserver.ServerRequest, java.util.Queue<io.fabric8.mockwebserver.ServerResponse>>();
        this.kubelet = new FakeKubelet(new KubernetesMixedDispatcher(responses), volumes, watchCloser);
        this.server = new KubernetesMockServer(new Context(), new MockWebServer(), responses, kubelet, false);
        // Loopback only: nothing else may reach (or be reached by) the test server.
        server.init(InetAddress.getLoopbackAddress(), 0);
        this.client = server.createClient();
        this.watch = client.pods().inAnyNamespace().watch(new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                if (action == Action.ADDED) {
                    kubeletThread.execute(() -> kubelet.markReady(client, pod));
                } else if (action == Action.DELETED) {
                    kubelet.podDeleted(pod);
                }
            }

            @Override
            public void onClose(WatcherException cause) {
                // Closed with the cluster.
            }
        });
    }

    private static ThreadFactory daemonThreads(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    public KubernetesClient client() {
        return client;
    }

    FakeKubelet kubelet() {
        return kubelet;
    }

    KubernetesMockServer server() {
        return server;
    }

    @Override
    public void close() {
        try {
            watch.close();
            kubeletThread.shutdownNow();
            client.close();
            server.destroy();
        } finally {
            // Not shutdownNow: a watch's close callback still queued ends that watch's own executor.
            watchCloser.shutdown();
        }
    }
}
