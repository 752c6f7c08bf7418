package io.sandboxfactory.provider.local;

/**
 * How a {@link ProcessGroupRunner} keeps hold of its commands' processes, to kill one command's
 * whole tree (a timeout, an interrupt) or everything a session's commands started (stop, destroy):
 * by host pids and records on disk ({@link HostTracking}, no isolation), or through the fork
 * server inside the session's boundary ({@link BoundaryTracking}).
 */
interface CommandTracking {

    /** Tracks a command that just started. */
    Tracked started(Launcher.Launch command);

    /** Kills every command running and whatever earlier commands left running in the background. */
    void killAll();

    /** {@link #killAll()} for good: the session was destroyed, and nothing of it may start again. */
    default void end() {
        killAll();
    }

    /** One command's tracking. */
    interface Tracked {

        /** Kills the command that ran out of time, with everything in its process tree. */
        void timedOut() throws InterruptedException;

        /** Kills the command (interrupted, or lost) with everything in its process tree. */
        void kill();

        /** The command's shell exited and its result was taken. */
        void finished();
    }
}
