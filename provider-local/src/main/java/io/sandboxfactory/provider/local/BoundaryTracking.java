package io.sandboxfactory.provider.local;

/**
 * Tracking inside an isolated session: the fork server runs in the session's pid namespace, so it
 * kills a command's tree there, and killing everything is ending the namespace. No record is
 * written per command: when the JVM dies the server ends its commands (SIGTERM, then SIGKILL) and
 * exits, and the namespace goes with it; only the boundary itself is recorded, so another instance can end it.
 *
 * @param ended runs once the session is destroyed and its server ended (the provider forgets the server)
 */
record BoundaryTracking(ForkServer server, Runnable ended) implements CommandTracking {

    @Override
    public Tracked started(Launcher.Launch command) {
        return new Tracked() {
            @Override
            public void timedOut() {
                command.killInside();
            }

            @Override
            public void kill() {
                command.killInside();
            }

            @Override
            public void finished() {
                // Nothing recorded, nothing to forget: what it left in the background ends with the boundary.
            }
        };
    }

    @Override
    public void killAll() {
        server.killAll();
    }

    @Override
    public void end() {
        server.end();
        ended.run();
    }
}
