package io.sandboxfactory.api.support;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.Optional;

/**
 * A host process that runs sandbox commands: host name, pid and start time, so a process that is
 * provably gone can be told from one that is alive (or from a stranger that reuses its pid). A
 * provider records it with the commands it starts, so that a later process can end the commands of
 * a host that was killed before it could (the local and docker providers do).
 *
 * @param host the host name
 * @param pid the process id
 * @param startMillis when it started (epoch millis), or -1 when unknown
 * @since 0.1.0
 */
public record HostProcess(String host, long pid, long startMillis) {

    /** This JVM. */
    public static HostProcess current() {
        ProcessHandle self = ProcessHandle.current();
        return new HostProcess(hostName(), self.pid(), self.info().startInstant().map(Instant::toEpochMilli).orElse(-1L));
    }

    /**
     * Whether this process is provably gone: it ran on this host, and no process with its pid is
     * alive (a zombie counts as gone), or the one alive started at another time. A process on
     * another host is never provably gone.
     */
    public boolean isProvablyGone() {
        if (!host.equals(hostName())) {
            return false;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive()) {
            return true;
        }
        return !startMatches(process.get(), startMillis);
    }

    /**
     * Whether the live {@code process} may be the one recorded as started at {@code startMillis}
     * (epoch millis, -1 when unknown): an unknown start time on either side matches, a known one
     * within a second (the resolution of the start times the platform reports). A mismatch means
     * the pid was reused by a stranger. The one place this rule lives.
     */
    public static boolean startMatches(ProcessHandle process, long startMillis) {
        Optional<Instant> started = process.info().startInstant();
        return startMillis < 0 || started.isEmpty() || Math.abs(started.get().toEpochMilli() - startMillis) <= 1000;
    }

    /** {@code host/pid/startMillis}: one token for an environment variable or a record file (host names hold no '/'). */
    public String encoded() {
        return host + "/" + pid + "/" + startMillis;
    }

    /** The host process {@link #encoded()} wrote, if {@code text} is one. */
    public static Optional<HostProcess> parse(String text) {
        String[] parts = text.split("/", -1);
        if (parts.length != 3 || parts[0].isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(new HostProcess(parts[0], Long.parseLong(parts[1]), Long.parseLong(parts[2])));
        } catch (NumberFormatException e) {
            return Optional.empty();
        }
    }

    private static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return Optional.ofNullable(System.getenv("HOSTNAME")).orElse("localhost");
        }
    }
}
