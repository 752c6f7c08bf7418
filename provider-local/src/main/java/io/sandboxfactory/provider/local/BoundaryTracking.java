package io.sandboxfactory.provider.local;

/**
 * Tracking inside an isolated session: the fork server runs in the session's pid namespace, so it
 * kills a command's tree there, and killing everything is ending the namespace. No record is
 * written: every process of the session dies with the JVM ({@code --die-with-parent}), so nothing
 * is left for a later start to reap.
 */
record BoundaryTracking(ForkServer server) implements CommandTracking {

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
}
