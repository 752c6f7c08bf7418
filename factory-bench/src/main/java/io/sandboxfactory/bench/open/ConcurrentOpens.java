package io.sandboxfactory.bench.open;

import io.sandboxfactory.bench.local.LocalFactories;
import io.sandboxfactory.bench.report.Group;
import io.sandboxfactory.bench.stats.Contender;
import io.sandboxfactory.bench.stats.Interleaved;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.retire.RetireMode;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code callers} threads opening one session at the same moment (released together by a latch),
 * timed until the last has its handle: on a new session (one start, the rest join it) and on the
 * running one, against a single cold open.
 */
public final class ConcurrentOpens implements AutoCloseable {

    private final SandboxFactory factory;
    private final LocalFactories factories;
    private final int callers;
    private final ExecutorService pool;
    private final AtomicInteger counter = new AtomicInteger();

    public ConcurrentOpens(SandboxFactory factory, LocalFactories factories, int callers) {
        this.factory = factory;
        this.factories = factories;
        this.callers = callers;
        this.pool = Executors.newFixedThreadPool(callers);
    }

    public Group measure(Interleaved rounds) throws Exception {
        String single = "1 cold open";
        String[] id = new String[1];
        List<Contender> out = new ArrayList<>();
        out.add(Contender.of(single, () -> factory.openSession(factories.spec(id[0] = next())),
                () -> factory.retire(id[0], RetireMode.DESTROY)));
        out.add(Contender.of(callers + " concurrent opens, new session", () -> together(id[0] = next()),
                () -> factory.retire(id[0], RetireMode.DESTROY)));
        String running = next();
        factory.openSession(factories.spec(running));
        out.add(Contender.of(callers + " concurrent opens, running session", () -> together(running)));
        return new Group(callers + " concurrent opens of one session (until the last returns)", single, rounds.run(out));
    }

    private String next() {
        return "crowd-" + counter.incrementAndGet();
    }

    private void together(String session) throws Exception {
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> opens = new ArrayList<>();
        for (int i = 0; i < callers; i++) {
            opens.add(pool.submit(() -> {
                go.await();
                return factory.openSession(factories.spec(session));
            }));
        }
        go.countDown();
        for (Future<?> open : opens) {
            open.get();
        }
    }

    @Override
    public void close() {
        pool.shutdownNow();
    }
}
