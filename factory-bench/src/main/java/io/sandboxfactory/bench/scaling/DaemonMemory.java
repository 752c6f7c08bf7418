package io.sandboxfactory.bench.scaling;

import io.sandboxfactory.bench.BenchWorkspace;
import io.sandboxfactory.bench.FactoryCommand;
import io.sandboxfactory.bench.report.BenchReport;
import io.sandboxfactory.bench.report.Curve;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The factory daemon's memory with 1, 10, 100… sessions opened through it ({@code factory open},
 * which leaves each session's sandbox warm in the daemon): its heap after a full collection ({@code
 * jcmd GC.run}, then {@code GC.heap_info}) and its resident set, and from their growth the bytes
 * the daemon holds per session.
 */
public final class DaemonMemory {

    /** The heap lines of GC.heap_info: "def new generation   total 4928K, used 1234K" (serial), "garbage-first heap ..." (G1). */
    private static final Pattern USED = Pattern.compile("(?:generation|heap)\\s+total \\d+K, used (\\d+)K");
    private static final Pattern RSS = Pattern.compile("VmRSS:\\s+(\\d+) kB");

    private final BenchWorkspace workspace;
    private final FactoryCommand factory;

    public DaemonMemory(BenchWorkspace workspace, FactoryCommand factory) {
        this.workspace = workspace;
        this.factory = factory;
    }

    public void measure(List<Integer> sizes, BenchReport report) throws Exception {
        Path state = workspace.directory("daemon-scaling");
        String bare = workspace.bareRepository().toString();
        List<Curve.Point> heap = new ArrayList<>();
        List<Curve.Point> rss = new ArrayList<>();
        List<Curve.Point> heapBytes = new ArrayList<>();
        int opened = 0;
        try {
            for (int size : sizes) {
                for (; opened < size; opened++) {
                    factory.output(state, "open", "d-" + opened, "--repo", bare, "--branch", "b");
                }
                long pid = factory.awaitDaemon(state).orElseThrow(() -> new IllegalStateException(
                        "No factory daemon serves " + state + " after " + size + " opens; see its log there."));
                workspace.processes().run(workspace.root(), List.of("jcmd", Long.toString(pid), "GC.run"));
                long used = heapUsed(workspace.processes().run(workspace.root(), List.of("jcmd", Long.toString(pid), "GC.heap_info")));
                heap.add(new Curve.Point(size, used / 1e6));
                rss.add(new Curve.Point(size, residentBytes(pid) / 1e6));
                heapBytes.add(new Curve.Point(size, used));
            }
        } finally {
            factory.stopDaemons(state);
        }
        report.figure("daemon heap bytes per session (" + Growth.lastStep(sizes) + " sessions opened through it)", Growth.lastSlope(heapBytes));
        report.add(new Curve("factory daemon heap after GC with N sessions", "sessions opened", "MB", heap));
        report.add(new Curve("factory daemon RSS with N sessions", "sessions opened", "MB", rss));
    }

    static long heapUsed(String heapInfo) {
        Matcher m = USED.matcher(heapInfo);
        long kib = 0;
        boolean found = false;
        while (m.find()) {
            kib += Long.parseLong(m.group(1));
            found = true;
        }
        if (!found) {
            throw new IllegalStateException("jcmd GC.heap_info printed no heap usage: " + heapInfo.strip());
        }
        return kib * 1024;
    }

    private static long residentBytes(long pid) throws Exception {
        Matcher m = RSS.matcher(Files.readString(Path.of("/proc/" + pid + "/status")));
        if (!m.find()) {
            throw new IllegalStateException("/proc/" + pid + "/status has no VmRSS line.");
        }
        return Long.parseLong(m.group(1)) * 1024;
    }
}
