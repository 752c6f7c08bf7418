package io.sandboxfactory.cli.client;

import io.sandboxfactory.cli.Main;
import io.sandboxfactory.cli.daemon.DaemonClient;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.OptionalInt;

/**
 * What {@code ./factory} runs once after a build to record its start-up archive (a class-data-sharing
 * archive, or on JDK 25 and later an AOT cache): the client's paths, the version line and the
 * command line through the factory daemon that the training's {@code open} started, and then the
 * same command line in this process, the full CLI's path (a first call, and every command no
 * daemon serves). One archive of both: the client's path alone would start about 6 ms sooner from
 * a smaller archive, but the full CLI's would then cost about 250 ms more. Exits non-zero when a
 * path failed (or the daemon did not run it), so that no archive of a broken run is kept.
 */
public final class StartupTraining {

    private StartupTraining() {
    }

    public static void main(String[] args) {
        Main.startupDefaults();
        Path workingDirectory = Path.of("").toAbsolutePath();
        Path home = Path.of(System.getProperty("user.home"));
        String[] version = {"--version"};
        OptionalInt versionCode = FactoryClient.answer(version, DaemonClient.of(version, System.getenv(), workingDirectory, home),
                System.out, System.err);
        int throughDaemon = FactoryClient.answer(args, DaemonClient.of(args, System.getenv(), workingDirectory, home), System.out,
                System.err).orElse(-1);
        int inProcess = Main.run(args);
        if (versionCode.orElse(-1) != 0 || throughDaemon != 0 || inProcess != 0) {
            System.err.println("factory: training run of " + Arrays.toString(args) + " failed (version " + versionCode.orElse(-1)
                    + ", through the daemon " + throughDaemon + ", in process " + inProcess + ").");
            System.exit(1);
        }
        System.exit(0);
    }
}
