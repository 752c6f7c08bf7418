package io.sandboxfactory.core.testing;

import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.session.SessionHandle;
import io.sandboxfactory.core.session.SessionListener;
import io.sandboxfactory.core.session.SessionPhase;
import io.sandboxfactory.core.session.SessionSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * Opens sessions concurrently, through several factories (so both the in-process lock and the file
 * lock of the object cache are crossed), while the server holds the first fetch, the object
 * cache's, until every open has said it clones: every open then asked for the mirror before the
 * fetch ended, and the server's count tells how many fetches they cost.
 */
public final class ConcurrentCachedClones implements SessionListener {

    private final Set<String> cloning = ConcurrentHashMap.newKeySet();

    @Override
    public void onPhase(String sessionId, SessionPhase phase, String detail) {
        if (phase == SessionPhase.CLONE) {
            cloning.add(sessionId);
        }
    }

    /**
     * Opens {@code ids} (spread over {@code factories} in turn) at once and returns their handles
     * once all are open; the first fetch the server sees is held until every open reported its clone.
     */
    public List<SessionHandle> open(GitHttpServer server, List<SandboxFactory> factories, List<String> ids,
                                    Function<String, SessionSpec> spec) throws Exception {
        GitHttpServer.Hold hold = server.holdNextFetch();
        ExecutorService pool = Executors.newFixedThreadPool(ids.size());
        try {
            List<Future<SessionHandle>> opens = new ArrayList<>();
            for (int i = 0; i < ids.size(); i++) {
                SandboxFactory factory = factories.get(i % factories.size());
                String id = ids.get(i);
                opens.add(pool.submit(() -> factory.openSession(spec.apply(id))));
            }
            if (!hold.arrived().await(2, TimeUnit.MINUTES)) {
                throw new AssertionError("no fetch reached the server");
            }
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
            while (!cloning.containsAll(ids)) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("not every open reached its clone: " + cloning);
                }
                Thread.onSpinWait();
                Thread.sleep(5);
            }
            hold.release().countDown();
            List<SessionHandle> handles = new ArrayList<>();
            for (Future<SessionHandle> open : opens) {
                handles.add(open.get(5, TimeUnit.MINUTES));
            }
            return handles;
        } finally {
            hold.release().countDown();
            pool.shutdownNow();
        }
    }
}
