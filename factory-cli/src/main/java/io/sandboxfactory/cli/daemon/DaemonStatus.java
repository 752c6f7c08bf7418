package io.sandboxfactory.cli.daemon;

import java.util.List;

/**
 * What a running factory daemon says about itself when {@code factory daemon status} asks.
 *
 * @param pid the daemon's process id
 * @param socket where it listens
 * @param started when it started (ISO-8601)
 * @param idleTimeout how long it waits without a command before it stops, as written ({@code 10m})
 * @param commandsRunning the commands it runs right now
 * @param warmSessions the sessions whose sandboxes it holds running between commands
 */
public record DaemonStatus(long pid, String socket, String started, String idleTimeout, int commandsRunning,
                           List<String> warmSessions) {

    /** The arguments of the request that asks a daemon for its status; no {@code factory} command line looks like it. */
    static final List<String> REQUEST = List.of("\0daemon-status");
}
