package io.sandboxfactory.core.store;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * Who holds a session lease: a unique id plus the host, pid and process start time, so a lease
 * whose owner process is provably gone can be taken at once instead of waiting for it to expire.
 *
 * @param id unique per owner (one per factory instance, even within one process)
 * @param host the host name of the owner process
 * @param pid the owner's process id
 * @param processStart when the owner process started, when known (guards against pid reuse)
 */
public record LeaseOwner(String id, String host, long pid, Optional<Instant> processStart) {

    public LeaseOwner {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(processStart, "processStart");
    }

    /** A new owner identity for this process. */
    public static LeaseOwner forThisProcess() {
        ProcessHandle self = ProcessHandle.current();
        return new LeaseOwner(UUID.randomUUID().toString(), hostName(), self.pid(), self.info().startInstant());
    }

    /**
     * Whether this owner's process is provably gone: it ran on this host, and no process with its
     * pid is alive or the one alive started at another time. Owners on other hosts are never
     * provably gone.
     */
    public boolean isProvablyGone() {
        if (!host.equals(hostName())) {
            return false;
        }
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        if (process.isEmpty() || !process.get().isAlive()) {
            return true;
        }
        Optional<Instant> started = process.get().info().startInstant();
        return processStart.isPresent() && started.isPresent()
                && Math.abs(started.get().toEpochMilli() - processStart.get().toEpochMilli()) > 1000;
    }

    static String hostName() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return Optional.ofNullable(System.getenv("HOSTNAME")).orElse("localhost");
        }
    }

    @Override
    public String toString() {
        return "pid " + pid + " on " + host + " (" + id + ")";
    }
}
