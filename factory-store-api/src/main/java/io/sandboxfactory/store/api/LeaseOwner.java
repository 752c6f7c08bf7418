package io.sandboxfactory.store.api;

import io.sandboxfactory.api.support.HostProcess;

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
 * @param processStartStamp the owner process's {@link HostProcess#startStamp()}, empty when unknown
 *        (decides over {@code processStart}, which a step of the wall clock can move)
 *
 * @since 0.1.0
 */
public record LeaseOwner(String id, String host, long pid, Optional<Instant> processStart, String processStartStamp) {

    public LeaseOwner {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(host, "host");
        Objects.requireNonNull(processStart, "processStart");
        Objects.requireNonNull(processStartStamp, "processStartStamp");
    }

    /** A new owner identity for this process. */
    public static LeaseOwner forThisProcess() {
        HostProcess self = HostProcess.current();
        return new LeaseOwner(UUID.randomUUID().toString(), self.host(), self.pid(),
                self.startMillis() < 0 ? Optional.empty() : Optional.of(Instant.ofEpochMilli(self.startMillis())), self.startStamp());
    }

    /**
     * Whether this owner's process is provably gone: it ran on this host, and no process with its
     * pid is alive or the one alive started at another time ({@link HostProcess#isProvablyGone()}).
     * Owners on other hosts are never provably gone.
     */
    public boolean isProvablyGone() {
        return new HostProcess(host, pid, processStart.map(Instant::toEpochMilli).orElse(-1L), processStartStamp).isProvablyGone();
    }

    @Override
    public String toString() {
        return "pid " + pid + " on " + host + " (" + id + ")";
    }
}
