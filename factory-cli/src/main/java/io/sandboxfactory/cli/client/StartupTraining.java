package io.sandboxfactory.cli.client;

import io.sandboxfactory.cli.daemon.DaemonClient;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.OptionalInt;

/**
 * What {@code ./factory} runs once after a build to record the client's start-up archive (a
 * class-data-sharing archive, or on JDK 25 and later an AOT cache): the client's two paths, the
 * version line and the command line through the factory daemon that the training's {@code open}
 * started, and nothing of the full CLI, so the archive holds just the client. Exits non-zero when
 * the daemon did not run it or it failed, so that no archive of another path is kept.
 */
public final class StartupTraining {

    private StartupTraining() {
    }

    public static void main(String[] args) {
        Path workingDirectory = Path.of("").toAbsolutePath();
        Path home = Path.of(System.getProperty("user.home"));
        String[] version = {"--version"};
        OptionalInt versionCode = FactoryClient.answer(version, DaemonClient.of(version, System.getenv(), workingDirectory, home),
                System.out, System.err);
        int throughDaemon = FactoryClient.answer(args, DaemonClient.of(args, System.getenv(), workingDirectory, home), System.out,
                System.err).orElse(-1);
        if (versionCode.orElse(-1) != 0 || throughDaemon != 0) {
            System.err.println("factory: training run of " + Arrays.toString(args) + " failed (version " + versionCode.orElse(-1)
                    + ", through the daemon " + throughDaemon + ").");
            System.exit(1);
        }
        System.exit(0);
    }
}
