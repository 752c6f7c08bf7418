package io.sandboxfactory.api.testing;

import io.sandboxfactory.api.support.HostProcess;

import java.io.IOException;
import java.time.Instant;

/**
 * Host processes that are provably gone, for the tests of dead-host reaping. Shared by the modules'
 * tests through factory-api's test-jar.
 */
public final class DeadHosts {

    private DeadHosts() {
    }

    /** A process of this host that has exited: same host name, its pid no longer running. */
    public static HostProcess exited() throws IOException, InterruptedException {
        Process exited = new ProcessBuilder("true").start();
        exited.waitFor();
        HostProcess dead = new HostProcess(HostProcess.current().host(), exited.pid(),
                exited.info().startInstant().map(Instant::toEpochMilli).orElse(-1L), "");
        if (!dead.isProvablyGone()) {
            throw new IllegalStateException("An exited process is not provably gone: " + dead.encoded());
        }
        return dead;
    }
}
