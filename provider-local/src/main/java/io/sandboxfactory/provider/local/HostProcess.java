package io.sandboxfactory.provider.local;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.Optional;

/**
 * A host process that runs sandbox commands: host name, pid and start time, so a process that is
 * provably gone can be told from one that is alive (or from a stranger that reuses its pid).
 *
 * @param host the host name
 * @param pid the process id
 * @param startMillis when it started (epoch millis), or -1 when unknown
 */
record HostProcess(String host, long pid, long startMillis) {

    /** This JVM. */
    static HostProcess current() {
        ProcessHandle self = ProcessHandle.current();
        return new HostProcess(hostName(), self.pid(), self.info().startInstant().map(Instant::toEpochMilli).orElse(-1L));
    }

    /**
     * Whether this process is provably gone: it ran on this host, and no process with its pid is
     * alive (a zombie counts as gone), or the one alive started at another time. A process on
     * another host is never provably gone.
     */
    boolean isProvablyGone() {
        if (!host.equals(hostName())) {
            return false;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive()) {
            return true;
        }
        Optional<Instant> started = process.get().info().startInstant();
        return startMillis >= 0 && started.isPresent() && Math.abs(started.get().toEpochMilli() - startMillis) > 1000;
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return Optional.ofNullable(System.getenv("HOSTNAME")).orElse("localhost");
        }
    }
}
