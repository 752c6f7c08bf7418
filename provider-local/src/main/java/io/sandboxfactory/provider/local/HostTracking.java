package io.sandboxfactory.provider.local;

import java.time.Duration;
import java.util.Optional;
import java.util.logging.Logger;

/**
 * Tracking of commands that run as processes of the host (no isolation): each command's process
 * group by its host pid ({@link ProcessGroups}), and a record on disk while it runs ({@link
 * RunningCommands}), so a later start can end what a dead host left running.
 */
final class HostTracking implements CommandTracking {

    private static final Logger LOG = Logger.getLogger(HostTracking.class.getName());

    /** How long an end the launcher has not reported may still come before it counts as lost. */
    private static final Duration LOST_END_GRACE = Duration.ofSeconds(1);

    private final RunningCommands running;
    private final ProcessGroups groups = new ProcessGroups();

    /** @param running where each command is recorded while it runs, so it can be ended if this host dies */
    HostTracking(RunningCommands running) {
        this.running = running;
    }

    @Override
    public Tracked started(Launcher.Launch launch) {
        groups.add(launch);
        RunningCommands.Recording recording = running.started(launch);
        return new Tracked() {
            @Override
            public void timedOut() throws InterruptedException {
                warnIfTheEndWasLost(launch);
                groups.kill(launch);
            }

            @Override
            public void kill() {
                groups.kill(launch);
            }

            @Override
            public void finished() {
                running.finished(recording);
                if (launch.groupEmptyAtExit()) {
                    groups.forget(launch);
                } else {
                    groups.forgetFinishedNowAndThen();
                }
            }
        };
    }

    /**
     * A command that timed out although its shell had ended: the launcher never reported the end,
     * which is a fault of this provider, not of the command, and must not pass for a slow command. A
     * shell that ended at the very moment of the timeout has its end reported within the grace.
     */
    private static void warnIfTheEndWasLost(Launcher.Launch launch) throws InterruptedException {
        Optional<String> state = ProcessTable.state(launch.pid());
        if ((state.isEmpty() || state.get().equals("Z")) && !launch.awaitExit(LOST_END_GRACE)) {
            LOG.warning("The local provider lost the end of a command: its shell (pid " + launch.pid() + ") had "
                    + (state.isEmpty() ? "exited" : "exited and was not reaped") + " when the command timed out.");
        }
    }

    @Override
    public void killAll() {
        groups.killAll();
    }
}
