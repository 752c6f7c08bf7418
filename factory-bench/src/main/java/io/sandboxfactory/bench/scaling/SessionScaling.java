package io.sandboxfactory.bench.scaling;

import io.sandboxfactory.bench.local.LocalFactories;
import io.sandboxfactory.bench.report.BenchReport;
import io.sandboxfactory.bench.report.Curve;
import io.sandboxfactory.bench.stats.Interleaved;
import io.sandboxfactory.bench.stats.Samples;
import io.sandboxfactory.core.SandboxFactory;
import io.sandboxfactory.core.retire.RetireMode;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * One factory with 1, 10, 100, 1000… live local sessions (opened and kept): at each size, the
 * latency of a cold open of one more session (destroyed again), of a warm reopen of a live one, and
 * the heap after collection; from the growth, the bytes each live session costs in all and by owner.
 */
public final class SessionScaling {

    private final LocalFactories factories;
    private final HeapProbe heap = new HeapProbe();
    private final int probes;

    /** @param probes how many cold and warm opens are timed at each size */
    public SessionScaling(LocalFactories factories, int probes) {
        this.factories = factories;
        this.probes = probes;
    }

    public void measure(List<Integer> sizes, BenchReport report) throws Exception {
        List<Curve.Point> cold = new ArrayList<>();
        List<Curve.Point> warm = new ArrayList<>();
        List<Curve.Point> heapMb = new ArrayList<>();
        List<Curve.Point> heapBytes = new ArrayList<>();
        Map<String, List<Curve.Point>> ownerBytes = new LinkedHashMap<>();
        int live = 0;
        Random random = new Random(22);
        ExecutorService fill = Executors.newFixedThreadPool(2);
        try (SandboxFactory factory = factories.create("scaling")) {
            for (int size : sizes) {
                live = fillTo(factory, fill, live, size);
                double[] coldMs = new double[probes];
                double[] warmMs = new double[probes];
                for (int i = 0; i < probes; i++) {
                    String probe = "probe-" + size + "-" + i;
                    coldMs[i] = Interleaved.time(() -> factory.openSession(factories.spec(probe)));
                    factory.retire(probe, RetireMode.DESTROY);
                    String existing = "live-" + random.nextInt(live);
                    warmMs[i] = Interleaved.time(() -> factory.openSession(factories.spec(existing)));
                }
                long bytes = heap.liveBytes();
                Map<String, Long> owners = heap.shallowBytesByOwner();
                cold.add(new Curve.Point(size, new Samples("cold", coldMs).median()));
                warm.add(new Curve.Point(size, new Samples("warm", warmMs).median()));
                heapMb.add(new Curve.Point(size, bytes / 1e6));
                heapBytes.add(new Curve.Point(size, bytes));
                owners.forEach((owner, held) -> ownerBytes.computeIfAbsent(owner, o -> new ArrayList<>()).add(new Curve.Point(size, held)));
            }
        } finally {
            fill.shutdownNow();
        }
        report.figure("heap bytes per live session, in-process factory (memo + store + sandboxes; " + Growth.lastStep(sizes) + " sessions)",
                Growth.lastSlope(heapBytes));
        ownerBytes.forEach((owner, points) -> report.figure("  of which shallow bytes of objects of the " + owner, Growth.lastSlope(points)));
        report.add(new Curve("cold open with N live sessions", "live sessions", "median ms", cold));
        report.add(new Curve("warm reopen with N live sessions", "live sessions", "median ms", warm));
        report.add(new Curve("heap after GC with N live sessions", "live sessions", "MB", heapMb));
    }

    /** Opens sessions {@code live-<from>} … {@code live-<to - 1>}, two at a time (not timed). */
    private int fillTo(SandboxFactory factory, ExecutorService fill, int from, int to) throws Exception {
        List<Future<?>> opens = new ArrayList<>();
        for (int i = from; i < to; i++) {
            String id = "live-" + i;
            opens.add(fill.submit(() -> factory.openSession(factories.spec(id))));
        }
        for (Future<?> open : opens) {
            open.get();
        }
        return Math.max(from, to);
    }
}
