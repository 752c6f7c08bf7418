package io.sandboxfactory.cli;

import io.sandboxfactory.cli.daemon.DaemonClient;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * What {@code ./factory} runs once after a build to record its class-data-sharing archive: the same
 * {@code exec} first through the factory daemon (the usual path) and then in this process (the
 * path of a first call, and of every other command), so the archive holds the classes of both.
 * Exits non-zero when either path failed, so that no archive of a broken run is kept.
 */
public final class StartupTraining {

    private StartupTraining() {
    }

    public static void main(String[] args) {
        Main.startupDefaults();
        DaemonClient daemon = DaemonClient.of(args, System.getenv(), Path.of("").toAbsolutePath(),
                Path.of(System.getProperty("user.home")));
        int throughDaemon = daemon.runThroughDaemon(args, System.out, System.err).orElse(-1);
        int inProcess = Main.run(args);
        if (throughDaemon != 0 || inProcess != 0) {
            System.err.println("factory: training run of " + Arrays.toString(args) + " failed (daemon " + throughDaemon
                    + ", in process " + inProcess + ").");
            System.exit(1);
        }
        System.exit(0);
    }
}
